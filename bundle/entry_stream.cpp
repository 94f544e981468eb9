#include "bundle/entry_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace triage {

EntryStream::EntryStream(ByteSource& data, uint64_t entry_limit, ReadBudget& budget,
                         std::vector<char>& head_buffer)
    : data_(data), entry_limit_(entry_limit), budget_(budget), head_(head_buffer) {}

size_t EntryStream::read_data(char* buf, size_t n) {
  if (data_ended_) return 0;
  uint64_t room = std::min(entry_limit_ - std::min(entry_limit_, bytes_),
                           budget_.total_limit - std::min(budget_.total_limit, budget_.total_used));
  if (room == 0) {
    // At a limit: only a cut if the data really goes on.
    char probe;
    if (data_.read(&probe, 1) == 0) {
      data_ended_ = true;
      data_error_ = data_.error();
      return 0;
    }
    data_ended_ = true;
    bool entry = entry_limit_ <= bytes_;
    cut_ = entry ? Cut::entry_limit : Cut::total_limit;
    if (!entry) budget_.total_exhausted = true;
    error_ = entry ? fmt::format("stopped at --max-entry-bytes ({} bytes)", entry_limit_)
                   : fmt::format("stopped at --max-total-bytes ({} bytes)", budget_.total_limit);
    return 0;
  }
  size_t k = data_.read(buf, static_cast<size_t>(std::min<uint64_t>(n, room)));
  if (k == 0) {
    data_ended_ = true;
    data_error_ = data_.error();
    if (!data_error_.empty()) error_ = data_error_;
    return 0;
  }
  bytes_ += k;
  budget_.total_used += k;
  if (budget_.progress) budget_.progress->on_bytes(budget_.total_used);
  return k;
}

std::string_view EntryStream::fill_head(size_t n) {
  if (head_.size() < n + 1) head_.resize(n + 1);  // once: the buffer is reused, never cleared
  size_t got = 0;
  while (got < n) {
    size_t k = read_data(head_.data() + got, n - got);
    if (k == 0) break;
    got += k;
  }
  head_len_ = got;
  head_pos_ = 0;
  // Find out whether the head is the whole entry without losing a byte: read one more,
  // which read() then serves like the rest of the head.
  if (got == n && !data_ended_ && read_data(head_.data() + n, 1) == 1) head_len_ = n + 1;
  return std::string_view(head_.data(), got);
}

size_t EntryStream::read(char* buf, size_t n) {
  if (head_pos_ < head_len_) {
    size_t k = std::min(n, head_len_ - head_pos_);
    std::memcpy(buf, head_.data() + head_pos_, k);
    head_pos_ += k;
    return k;
  }
  return read_data(buf, n);
}

void EntryStream::note_overlong_line(uint64_t line, uint64_t offset, uint64_t length) {
  ++overlong_count_;
  if (overlong_samples_.size() < 5) overlong_samples_.push_back({line, offset, length});
}

void EntryStream::drain() {
  head_pos_ = head_len_;
  char buf[65536];
  while (read_data(buf, sizeof buf) > 0) {
  }
}

}  // namespace triage
