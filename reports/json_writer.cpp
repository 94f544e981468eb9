#include "reports/json_writer.h"

#include "reports/display_width.h"

#include <fmt/format.h>

namespace triage {

void JsonWriter::newline() {
  if (!pretty_) return;
  out_ << '\n';
  for (size_t i = 0; i < has_items_.size(); ++i) out_ << "  ";
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_items_.empty()) {
    if (has_items_.back()) out_ << ',';
    has_items_.back() = true;
    newline();
  }
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_ << '{';
  has_items_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  bool had = has_items_.back();
  has_items_.pop_back();
  if (had) newline();
  out_ << '}';
  if (has_items_.empty() && pretty_) out_ << '\n';
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_ << '[';
  has_items_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  bool had = has_items_.back();
  has_items_.pop_back();
  if (had) newline();
  out_ << ']';
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  before_value();
  write_string(out_, k);
  out_ << (pretty_ ? ": " : ":");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  before_value();
  write_string(out_, s);
  return *this;
}

JsonWriter& JsonWriter::value(int64_t n) {
  before_value();
  out_ << n;
  return *this;
}

JsonWriter& JsonWriter::value(uint64_t n) {
  before_value();
  out_ << n;
  return *this;
}

JsonWriter& JsonWriter::value(bool b) {
  before_value();
  out_ << (b ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ << "null";
  return *this;
}

// Length of a valid UTF-8 sequence starting at s[i], or 0.
static size_t utf8_length(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xc0) != 0x80) return 0;
  if (n == 3 && c == 0xe0 && b(i + 1) < 0xa0) return 0;  // overlong
  if (n == 3 && c == 0xed && b(i + 1) >= 0xa0) return 0; // surrogate
  if (n == 4 && c == 0xf0 && b(i + 1) < 0x90) return 0;
  if (n == 4 && c == 0xf4 && b(i + 1) >= 0x90) return 0;
  return n;
}

void JsonWriter::write_string(std::ostream& out, std::string_view s) {
  out << '"';
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      size_t n = utf8_length(s, i);
      if (n) {
        // C1 controls, bidi overrides and isolates and the line/paragraph separators are
        // valid JSON but `jq -r` prints them raw to a terminal: written escaped.
        char32_t cp = decode_utf8(s, i).cp;
        if (shown_escaped(cp))
          out << fmt::format("\\u{:04x}", static_cast<unsigned>(cp));
        else
          out.write(s.data() + i, static_cast<std::streamsize>(n));
        i += n;
      } else {
        out << fmt::format("\\u{:04x}", c);
        ++i;
      }
      continue;
    }
    switch (c) {
      case '"': out << "\\\""; break;
      case '\\': out << "\\\\"; break;
      case '\n': out << "\\n"; break;
      case '\r': out << "\\r"; break;
      case '\t': out << "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) out << fmt::format("\\u{:04x}", c);
        else out << static_cast<char>(c);
    }
    ++i;
  }
  out << '"';
}

}  // namespace triage
