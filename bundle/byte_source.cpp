#include "bundle/byte_source.h"

#include <algorithm>
#include <cstring>

namespace triage {

size_t StringSource::read(char* buf, size_t n) {
  size_t k = std::min(n, data_.size() - pos_);
  std::memcpy(buf, data_.data() + pos_, k);
  pos_ += k;
  return k;
}

std::string read_all(ByteSource& src, size_t limit, bool* truncated) {
  std::string out;
  char buf[65536];
  if (truncated) *truncated = false;
  while (true) {
    size_t k = src.read(buf, sizeof buf);
    if (k == 0) break;
    if (out.size() + k > limit) {
      out.append(buf, limit - out.size());
      if (truncated) *truncated = true;
      break;
    }
    out.append(buf, k);
  }
  return out;
}

}  // namespace triage
