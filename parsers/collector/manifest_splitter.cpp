#include "parsers/collector/manifest_splitter.h"

#include <algorithm>

namespace triage {
namespace {

constexpr size_t kChunk = 64 << 10;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

ManifestSplitter::ManifestSplitter(ByteSource& src, size_t max_value_bytes, size_t window_bytes,
                                   size_t keep_bytes, size_t max_bytes)
    : src_(src), max_value_(max_value_bytes), window_(window_bytes), keep_limit_(keep_bytes),
      max_bytes_(max_bytes) {}

// Drops what is no longer needed (before the held value, else before the cursor), then reads.
bool ManifestSplitter::fill() {
  if (eof_) return false;
  size_t drop = holding_ ? std::min(hold_, pos_) : pos_;
  if (drop > 0) {
    buf_.erase(0, drop);
    base_ += drop, pos_ -= drop, hold_ -= std::min(hold_, drop);
  }
  chunk_.resize(kChunk);
  size_t k = src_.read(chunk_.data(), kChunk);
  if (k == 0) {
    eof_ = true;
    return false;
  }
  std::string_view got(chunk_.data(), k);
  total_ += k;
  newlines_ += static_cast<uint64_t>(std::count(got.begin(), got.end(), '\n'));
  last_ = got.back();
  if (keep_) {
    if (kept_.size() + k > keep_limit_) {
      keep_ = false;
      std::string().swap(kept_);
    } else {
      kept_.append(got);
    }
  }
  if (total_ > max_bytes_) {  // read no further; what was read past the cap is counted only
    over_max_ = eof_ = true;
    got = got.substr(0, k - static_cast<size_t>(total_ - max_bytes_));
  }
  buf_.append(got);
  return !got.empty();
}

bool ManifestSplitter::skip_blanks() {
  for (;;) {
    if (pos_ >= buf_.size() && !fill()) return false;
    if (!is_blank(buf_[pos_])) return true;
    step();
  }
}

// 0: a complete value [hold_, pos_); 1: the data ended inside it; 2: longer than the cap.
int ManifestSplitter::scan_value() {
  char first = buf_[pos_];
  bool compound = first == '{' || first == '[';
  bool string = first == '"';
  size_t depth = 0;  // a count, not a stack: nesting costs nothing here (simdjson checks it)
  bool in_string = false, escaped = false;
  for (;;) {
    if (pos_ >= buf_.size() && !fill()) return string || compound || pos_ == hold_ ? 1 : 0;
    if (pos_ - hold_ >= max_value_) return 2;
    char c = buf_[pos_];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') {
        in_string = false;
        if (string) {
          step();
          return 0;
        }
      }
      step();
      continue;
    }
    if (!string && !compound) {  // a number, true, false, null (or garbage simdjson refuses)
      if (is_blank(c) || c == ',' || c == ']' || c == '}') return 0;
      step();
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') ++depth;
    else if ((c == '}' || c == ']') && --depth == 0) {
      step();
      return 0;
    }
    step();
  }
}

bool ManifestSplitter::damaged(Part& part, std::string_view what, bool not_object) {
  reason_.assign(what);
  part.kind = Part::Kind::damaged;
  part.text = reason_;
  part.offset = base_ + pos_;
  part.line = line_;
  part.not_object = not_object;
  state_ = State::done;
  holding_ = false;
  return true;
}

bool ManifestSplitter::damaged_at(Part& part, std::string_view what, uint64_t offset, uint64_t line) {
  damaged(part, what);
  part.offset = offset, part.line = line;
  return true;
}

bool ManifestSplitter::next(Part& part) {
  part = Part{};
  for (;;) {
    holding_ = false;
    switch (state_) {
      case State::done: return false;
      case State::start:
        if (!skip_blanks() || buf_[pos_] != '{') return damaged(part, "not a JSON object", true);
        step();
        state_ = State::object;
        first_ = true;
        continue;
      case State::object: {  // a key, or the end of an empty object
        if (!skip_blanks()) return damaged(part, "cut short");
        if (buf_[pos_] == '}' && first_) {
          step();
          state_ = State::done;
          part.kind = Part::Kind::end;
          return true;
        }
        if (buf_[pos_] != '"') return damaged(part, "expected a key");
        holding_ = true, hold_ = pos_;
        int r = scan_value();
        if (r == 1) return damaged(part, "cut short");
        if (r == 2) return damaged(part, "a key longer than " + std::to_string(max_value_) + " bytes");
        key_.assign(buf_, hold_, pos_ - hold_);
        holding_ = false;
        if (!skip_blanks()) return damaged(part, "cut short");
        if (buf_[pos_] != ':') return damaged(part, "expected ':' after a key");
        step();
        if (!skip_blanks()) return damaged(part, "cut short");
        first_ = false;
        if (key_ == "\"items\"" && buf_[pos_] == '[') {
          step();
          state_ = State::items;
          first_item_ = true;
          item_index_ = 0;
          part.kind = Part::Kind::items;
          return true;
        }
        uint64_t offset = base_ + pos_, line = line_;
        holding_ = true, hold_ = pos_;
        r = scan_value();
        if (r == 1) return damaged_at(part, "cut short in field " + key_.substr(0, 64), offset, line);
        if (r == 2)
          return damaged_at(part, "field " + key_.substr(0, 64) + " is longer than " + std::to_string(max_value_) + " bytes",
                            offset, line);
        state_ = State::after_value;
        part.kind = Part::Kind::field;
        part.key = key_;
        part.text = std::string_view(buf_).substr(hold_, pos_ - hold_);
        part.offset = offset, part.line = line;
        return true;
      }
      case State::after_value:
        if (!skip_blanks()) return damaged(part, "cut short");
        if (buf_[pos_] == '}') {
          step();
          state_ = State::done;
          part.kind = Part::Kind::end;
          return true;
        }
        if (buf_[pos_] != ',') return damaged(part, "expected ',' or '}' after a field");
        step();
        state_ = State::object;
        continue;
      case State::items: {
        if (!skip_blanks()) return damaged(part, "cut short");
        if (buf_[pos_] == ']' && first_item_) {
          step();
          state_ = State::after_value;
          continue;
        }
        uint64_t offset = base_ + pos_, line = line_;
        holding_ = true, hold_ = pos_;
        int r = scan_value();
        if (r == 1) return damaged_at(part, "cut short in item " + std::to_string(item_index_ + 1), offset, line);
        if (r == 2)
          return damaged_at(part, "item " + std::to_string(item_index_ + 1) + " is longer than " +
                                      std::to_string(max_value_) + " bytes",
                            offset, line);
        if (pos_ == hold_) return damaged(part, "an item is missing");
        size_t length = pos_ - hold_;
        while (buf_.size() - hold_ < window_ && fill()) {
        }
        ++item_index_;
        first_item_ = false;
        state_ = State::after_item;
        part.kind = Part::Kind::item;
        part.text = std::string_view(buf_).substr(hold_, length);
        part.window = std::string_view(buf_).substr(hold_, window_);
        part.offset = offset, part.line = line;
        part.index = item_index_;
        return true;
      }
      case State::after_item:
        if (!skip_blanks()) return damaged(part, "cut short");
        if (buf_[pos_] == ']') {
          step();
          state_ = State::after_value;
          continue;
        }
        if (buf_[pos_] != ',') return damaged(part, "expected ',' or ']' after an item");
        step();
        state_ = State::items;
        continue;
    }
  }
}

void ManifestSplitter::drain() {
  holding_ = false;
  state_ = State::done;
  for (pos_ = buf_.size(); fill(); pos_ = buf_.size()) {
  }
  buf_.clear(), pos_ = 0;
  if (!over_max_) return;
  chunk_.resize(kChunk);
  while (size_t k = src_.read(chunk_.data(), kChunk)) {
    total_ += k;
    newlines_ += static_cast<uint64_t>(std::count(chunk_.data(), chunk_.data() + k, '\n'));
    last_ = chunk_[k - 1];
  }
}

uint64_t ManifestSplitter::lines() const { return newlines_ + (total_ > 0 && last_ != '\n' ? 1 : 0); }

}  // namespace triage
