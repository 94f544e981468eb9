#include "bundle/sha256.h"

namespace triage {

std::string Sha256::hex_digest() {
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx_, sizeof digest, digest);  // also re-initialises the context
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(2 * sizeof digest, '0');
  for (size_t i = 0; i < sizeof digest; ++i) {
    out[2 * i] = kHex[digest[i] >> 4];
    out[2 * i + 1] = kHex[digest[i] & 15];
  }
  return out;
}

std::string sha256_hex(std::string_view data) {
  Sha256 h;
  h.update(data.data(), data.size());
  return h.hex_digest();
}

}  // namespace triage
