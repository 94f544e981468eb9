#pragma once
// What a parser reads of one entry: the (decompressed) bytes, with the entry and total
// byte limits applied, the first bytes kept for sniffing and replayed, and overlong lines
// noted for the input report.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bundle/byte_source.h"
#include "bundle/read_progress.h"

namespace triage {

// Shared by every entry of every input: --max-total-bytes.
struct ReadBudget {
  uint64_t total_limit = 0;
  uint64_t total_used = 0;
  bool total_exhausted = false;  // data was cut because of the total limit
  ReadProgress* progress = nullptr;  // a terminal's progress display, when there is one
};

struct OverlongLine {
  uint64_t line = 0, offset = 0, length = 0;
};

class EntryStream final : public ByteSource {
 public:
  enum class Cut { none, entry_limit, total_limit };

  // `head_buffer` is reused from entry to entry (its capacity is kept).
  EntryStream(ByteSource& data, uint64_t entry_limit, ReadBudget& budget, std::vector<char>& head_buffer);

  // Reads up to n bytes into the head (for sniffing); read() serves them again first.
  std::string_view fill_head(size_t n);
  bool head_is_whole() const { return data_ended_; }  // the head holds every byte
  size_t read(char* buf, size_t n) override;
  void note_overlong_line(uint64_t line, uint64_t offset, uint64_t length) override;
  // Reads what a parser left unread (so counts, hashes and damage checks cover it all).
  void drain();

  uint64_t bytes() const { return bytes_; }  // bytes taken from the data (decompressed)
  Cut cut() const { return cut_; }
  // Damage reported by the data below (truncation, corrupt compression); "" when none.
  const std::string& data_error() const { return data_error_; }
  uint64_t overlong_count() const { return overlong_count_; }
  const std::vector<OverlongLine>& overlong_samples() const { return overlong_samples_; }

 private:
  size_t read_data(char* buf, size_t n);
  ByteSource& data_;
  uint64_t entry_limit_;
  ReadBudget& budget_;
  std::vector<char>& head_;
  size_t head_len_ = 0, head_pos_ = 0;
  uint64_t bytes_ = 0;
  bool data_ended_ = false;
  Cut cut_ = Cut::none;
  std::string data_error_;
  uint64_t overlong_count_ = 0;
  std::vector<OverlongLine> overlong_samples_;
};

}  // namespace triage
