#pragma once
// SHA-256 of a byte stream (nettle), fed while the bytes pass through.
#include <nettle/sha2.h>

#include <string>
#include <string_view>

namespace triage {

class Sha256 {
 public:
  Sha256() { sha256_init(&ctx_); }
  void update(const void* data, size_t n) {
    sha256_update(&ctx_, n, static_cast<const uint8_t*>(data));
  }
  // Lowercase hex of the digest; the hasher starts over afterwards.
  std::string hex_digest();

 private:
  sha256_ctx ctx_;
};

std::string sha256_hex(std::string_view data);

}  // namespace triage
