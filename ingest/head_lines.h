#pragma once
// The lines of a sniffed head (the first bytes of an entry): the last, unterminated line only
// when the head is the whole file (else it was cut at the sniff limit); a trailing CR dropped.

#include <string_view>

namespace triage {

class HeadLines {
 public:
  HeadLines(std::string_view head, bool whole) : head_(head), whole_(whole) {}

  bool next(std::string_view& line) {
    if (pos_ >= head_.size()) return false;
    size_t nl = head_.find('\n', pos_);
    if (nl == std::string_view::npos) {
      if (!whole_) return false;
      nl = head_.size();
    }
    line = head_.substr(pos_, nl - pos_);
    pos_ = nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return true;
  }

 private:
  std::string_view head_;
  bool whole_;
  size_t pos_ = 0;
};

}  // namespace triage
