#pragma once
// Many short texts kept compressed: appended in 64 KiB blocks, each block zstd-compressed when
// full. For texts kept by the hundred thousand and read back rarely (the excerpts of kernel
// lines that only finalize may pair, model/facts_logs.h KernelInfoLine).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace triage {

class PackedTexts {
 public:
  // Returns the id get() takes.
  uint32_t add(std::string_view text);
  std::string get(uint32_t id) const;
  size_t size() const { return count_; }
  size_t packed_bytes() const;  // memory held, for tests

 private:
  static constexpr size_t kBlockBytes = 64 << 10;
  struct Block {
    uint32_t first_id = 0;
    uint32_t raw_size = 0;
    std::string packed;
  };
  void seal();
  static std::string_view find(std::string_view raw, uint32_t index);

  std::vector<Block> blocks_;
  std::string open_;  // the block being filled: each text as a 4-byte length and its bytes
  uint32_t open_first_ = 0;
  uint32_t count_ = 0;
  mutable size_t cached_block_ = SIZE_MAX;  // the last block get() unpacked
  mutable std::string cache_;
};

}  // namespace triage
