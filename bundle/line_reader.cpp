#include "bundle/line_reader.h"

#include <cstring>

namespace triage {

LineReader::LineReader(ByteSource& src, size_t max_line)
    : src_(src), max_line_(max_line), cap_(max_line + 65536) {
  line_no_ = src.first_line_number() - 1;
  consumed_ = src.first_offset();
  buf_ = std::make_unique_for_overwrite<char[]>(cap_);  // not zeroed: one per entry
}

// Moves unread bytes to the front and reads more; false when nothing new arrived.
bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buf_.get(), buf_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == cap_) return false;
  size_t k = src_.read(buf_.get() + end_, cap_ - end_);
  if (k == 0) {
    eof_ = true;
    return false;
  }
  end_ += k;
  return true;
}

bool LineReader::next(Line& out) {
  size_t scanned = 0;  // bytes after begin_ known to hold no newline
  while (true) {
    const char* start = buf_.get() + begin_;
    const char* nl = static_cast<const char*>(
        std::memchr(start + scanned, '\n', end_ - begin_ - scanned));
    if (nl) {
      size_t len = static_cast<size_t>(nl - start);
      out = Line{};
      out.number = ++line_no_;
      out.offset = consumed_;
      out.full_length = len;
      if (len > max_line_) {
        out.overlong = true;
        len = max_line_;
        src_.note_overlong_line(out.number, out.offset, out.full_length);
      } else if (len > 0 && start[len - 1] == '\r') {
        --len;
      }
      out.text = std::string_view(start, len);
      size_t used = static_cast<size_t>(nl - start) + 1;
      begin_ += used;
      consumed_ += used;
      return true;
    }
    scanned = end_ - begin_;
    if (scanned > max_line_) break;  // overlong: hand out the prefix, then skip the rest
    if (!fill()) {
      if (end_ == begin_) return false;
      // last line without a newline
      size_t len = end_ - begin_;
      out = Line{};
      out.number = ++line_no_;
      out.offset = consumed_;
      out.full_length = len;
      out.unterminated = true;
      if (len > 0 && buf_[begin_ + len - 1] == '\r') --len;
      out.text = std::string_view(buf_.get() + begin_, len);
      consumed_ += end_ - begin_;
      begin_ = end_;
      return true;
    }
  }
  // The line is longer than the limit. Report its prefix; discard bytes until the newline.
  out = Line{};
  out.number = ++line_no_;
  out.offset = consumed_;
  out.overlong = true;
  // Copy the prefix to the front so the view survives the skipping below.
  std::memmove(buf_.get(), buf_.get() + begin_, max_line_);
  uint64_t length = end_ - begin_;
  consumed_ += length;
  begin_ = end_ = max_line_;  // keep the prefix; buffer after it is scratch space
  bool terminated = false;
  while (!terminated) {
    size_t k = src_.read(buf_.get() + max_line_, cap_ - max_line_);
    if (k == 0) {
      eof_ = true;
      break;
    }
    const char* p = buf_.get() + max_line_;
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', k));
    if (!nl) {
      length += k;
      consumed_ += k;
      continue;
    }
    size_t used = static_cast<size_t>(nl - p) + 1;
    length += used - 1;
    consumed_ += used;
    // keep the bytes after the newline for the next line
    std::memmove(buf_.get() + max_line_, nl + 1, k - used);
    begin_ = max_line_;
    end_ = max_line_ + (k - used);
    terminated = true;
  }
  out.unterminated = !terminated;
  out.full_length = length;
  src_.note_overlong_line(out.number, out.offset, length);
  out.text = std::string_view(buf_.get(), max_line_);
  if (!terminated) begin_ = end_ = max_line_;
  return true;
}

}  // namespace triage
