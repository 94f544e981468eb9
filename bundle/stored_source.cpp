#include "bundle/stored_source.h"

#include <algorithm>
#include <cstring>

namespace triage {

void StoredSource::consume(const char* p, size_t k) {
  if (!hashed_below_) sha_.update(p, k);
  count_ += k;
  if (k >= sizeof tail_) {
    std::memcpy(tail_, p + k - sizeof tail_, sizeof tail_);
    tail_len_ = sizeof tail_;
  } else {
    size_t keep = std::min(tail_len_, sizeof tail_ - k);
    std::memmove(tail_, tail_ + tail_len_ - keep, keep);
    std::memcpy(tail_ + keep, p, k);
    tail_len_ = keep + k;
  }
}

std::string_view StoredSource::peek(size_t n) {
  n = std::min(n, sizeof peeked_);
  while (peeked_len_ < n) {
    size_t k = in_.read(peeked_ + peeked_len_, n - peeked_len_);
    if (k == 0) break;
    consume(peeked_ + peeked_len_, k);
    peeked_len_ += k;
  }
  if (!in_.error().empty()) error_ = in_.error();
  return {peeked_ + peeked_pos_, peeked_len_ - peeked_pos_};
}

size_t StoredSource::read(char* buf, size_t n) {
  if (peeked_pos_ < peeked_len_) {
    size_t k = std::min(n, peeked_len_ - peeked_pos_);
    std::memcpy(buf, peeked_ + peeked_pos_, k);
    peeked_pos_ += k;
    return k;
  }
  size_t k = in_.read(buf, n);
  if (k == 0) {
    if (!in_.error().empty()) error_ = in_.error();
    return 0;
  }
  consume(buf, k);
  return k;
}

uint64_t StoredSource::drain() {
  uint64_t left = peeked_len_ - peeked_pos_;
  peeked_pos_ = peeked_len_;
  char buf[65536];
  while (size_t k = read(buf, sizeof buf)) left += k;
  return left;
}

}  // namespace triage
