#include "ingest/name_copies.h"

namespace triage {

uint64_t name_hash(std::string_view name) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a, then a finaliser: slots use the low bits
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h == 0 ? 1 : h;
}

void NameCopies::grow() {
  std::vector<uint64_t> old = std::move(slots_);
  slots_.assign(old.empty() ? 1024 : old.size() * 2, 0);
  size_t mask = slots_.size() - 1;
  for (uint64_t h : old)
    if (h != 0) {
      size_t i = h & mask;
      while (slots_[i] != 0) i = (i + 1) & mask;
      slots_[i] = h;
    }
}

size_t NameCopies::add(std::string_view name) {
  if ((used_ + 1) * 2 > slots_.size()) grow();  // at most half full
  uint64_t h = name_hash(name);
  size_t mask = slots_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    if (slots_[i] == h) return ++copies_.try_emplace(h, 1).first->second;
    if (slots_[i] == 0) {
      slots_[i] = h;
      ++used_;
      return 1;
    }
  }
}

}  // namespace triage
