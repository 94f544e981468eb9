#pragma once
// The stored bytes of one entry as they pass by: counted, hashed (sha256 of the stored,
// still compressed bytes) and with the first bytes available for a magic-number peek.
#include <cstdint>
#include <string>
#include <string_view>

#include "bundle/byte_source.h"
#include "bundle/sha256.h"

namespace triage {

class StoredSource final : public ByteSource {
 public:
  explicit StoredSource(ByteSource& in) : in_(in), hashed_below_(in.hashes_itself()) {}
  size_t read(char* buf, size_t n) override;
  // The first n bytes (n <= 16), without consuming them.
  std::string_view peek(size_t n);
  // Reads and hashes whatever is left; returns the number of bytes that were left.
  uint64_t drain();
  uint64_t count() const { return count_; }
  std::string sha256_hex() { return hashed_below_ ? in_.sha256_hex_of_all() : sha_.hex_digest(); }
  // The last (up to) 8 stored bytes read: a gzip trailer once the stream is drained.
  std::string_view tail() const { return {tail_, tail_len_}; }

 private:
  void consume(const char* p, size_t k);
  ByteSource& in_;
  bool hashed_below_;  // the bytes were hashed on the reader thread
  Sha256 sha_;
  uint64_t count_ = 0;
  char peeked_[16];
  size_t peeked_len_ = 0, peeked_pos_ = 0;
  char tail_[8];
  size_t tail_len_ = 0;
};

}  // namespace triage
