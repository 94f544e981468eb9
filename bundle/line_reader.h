#pragma once
// Splits a ByteSource into lines without allocating per line. A line longer than the
// limit is returned once, cut to the limit and marked overlong; the rest of it is skipped
// without being buffered, so a 300 MB line costs no more memory than the limit.
#include <cstdint>
#include <memory>
#include <string_view>

#include "bundle/byte_source.h"

namespace triage {

struct Line {
  std::string_view text;     // without the newline and without one trailing '\r'
  uint64_t number = 0;       // 1-based
  uint64_t offset = 0;       // byte offset of the line's first byte
  bool overlong = false;     // longer than the limit: text holds only its first part
  bool unterminated = false; // the last line had no newline
  uint64_t full_length = 0;  // the line's length in the source
};

class LineReader {
 public:
  static constexpr size_t kDefaultMaxLine = 1 << 20;  // 1 MiB

  explicit LineReader(ByteSource& src, size_t max_line = kDefaultMaxLine);
  // Next line; false at the end. The view stays valid until the next call.
  bool next(Line& out);
  uint64_t bytes_read() const { return consumed_; }
  const std::string& error() const { return src_.error(); }

 private:
  bool fill();
  ByteSource& src_;
  size_t max_line_;
  std::unique_ptr<char[]> buf_;
  size_t cap_, begin_ = 0, end_ = 0;
  bool eof_ = false;
  uint64_t consumed_ = 0;  // offset of buf_[begin_] in the source
  uint64_t line_no_ = 0;
};

}  // namespace triage
