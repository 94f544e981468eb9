#include "model/packed_texts.h"

#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace triage {

uint32_t PackedTexts::add(std::string_view text) {
  uint32_t len = static_cast<uint32_t>(std::min<size_t>(text.size(), UINT32_MAX));
  char prefix[4];
  std::memcpy(prefix, &len, 4);
  open_.append(prefix, 4);
  open_.append(text.data(), len);
  uint32_t id = count_++;
  if (open_.size() >= kBlockBytes) seal();
  return id;
}

void PackedTexts::seal() {
  if (open_.empty()) return;
  Block b;
  b.first_id = open_first_;
  b.raw_size = static_cast<uint32_t>(open_.size());
  b.packed.resize(ZSTD_compressBound(open_.size()));
  // Level 1: these blocks are written by the thousand and read back a few times.
  size_t n = ZSTD_compress(b.packed.data(), b.packed.size(), open_.data(), open_.size(), 1);
  if (ZSTD_isError(n)) throw std::runtime_error("excerpt store: zstd compression failed");
  b.packed.resize(n);
  b.packed.shrink_to_fit();
  blocks_.push_back(std::move(b));
  open_.clear();
  open_first_ = count_;
}

std::string_view PackedTexts::find(std::string_view raw, uint32_t index) {
  size_t at = 0;
  for (;;) {
    uint32_t len;
    std::memcpy(&len, raw.data() + at, 4);
    if (index == 0) return raw.substr(at + 4, len);
    at += 4 + len;
    --index;
  }
}

std::string PackedTexts::get(uint32_t id) const {
  if (id >= count_) return {};
  if (id >= open_first_) return std::string(find(open_, id - open_first_));
  auto it = std::upper_bound(blocks_.begin(), blocks_.end(), id,
                             [](uint32_t v, const Block& b) { return v < b.first_id; });
  size_t index = static_cast<size_t>(it - blocks_.begin()) - 1;
  const Block& b = blocks_[index];
  if (cached_block_ != index) {
    cache_.resize(b.raw_size);
    size_t n = ZSTD_decompress(cache_.data(), cache_.size(), b.packed.data(), b.packed.size());
    if (ZSTD_isError(n) || n != b.raw_size) throw std::runtime_error("excerpt store: zstd block damaged");
    cached_block_ = index;
  }
  return std::string(find(cache_, id - b.first_id));
}

size_t PackedTexts::packed_bytes() const {
  size_t n = open_.capacity();
  for (const auto& b : blocks_) n += b.packed.capacity() + sizeof(Block);
  return n;
}

}  // namespace triage
