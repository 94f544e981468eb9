#include "reports/html_escape.h"

#include <fmt/format.h>

namespace triage::html {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], 0 when the bytes there are not one
// (overlong forms, surrogates and code points above U+10FFFF are refused too).
size_t utf8_length(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  unsigned char c = b(0);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((b(k) & 0xC0) != 0x80) return 0;
  if (n == 2 && c < 0xC2) return 0;
  if (n == 3) {
    unsigned cp = ((c & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
    if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  }
  if (n == 4) {
    unsigned cp = ((c & 0x07u) << 18) | ((b(1) & 0x3Fu) << 12) | ((b(2) & 0x3Fu) << 6) | (b(3) & 0x3Fu);
    if (cp < 0x10000 || cp > 0x10FFFF) return 0;
  }
  return n;
}

void append_hex(std::string& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

}  // namespace

void append_escaped(std::string& out, std::string_view s, bool keep_newlines) {
  for (size_t i = 0; i < s.size();) {
    char ch = s[i];
    auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80) {
      size_t n = utf8_length(s, i);
      if (n == 0) {
        append_hex(out, c);
        ++i;
      } else {
        out.append(s.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '\t': out += ch; break;
      case '\n':
        if (keep_newlines) out += ch;
        else append_hex(out, c);
        break;
      default:
        if (c < 0x20 || c == 0x7f) append_hex(out, c);
        else out += ch;
    }
    ++i;
  }
}

std::string escape(std::string_view s, bool keep_newlines) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  append_escaped(out, s, keep_newlines);
  return out;
}

std::string anchor(std::string_view prefix, size_t index) { return fmt::format("{}-{}", prefix, index); }

namespace {

// `**bold**` pairs in text without code spans.
void append_bold(std::string& out, std::string_view s) {
  while (!s.empty()) {
    size_t open = s.find("**");
    size_t close = open == std::string_view::npos ? open : s.find("**", open + 2);
    if (close == std::string_view::npos || close == open + 2) {
      append_escaped(out, s);
      return;
    }
    append_escaped(out, s.substr(0, open));
    out += "<b>";
    append_escaped(out, s.substr(open + 2, close - open - 2));
    out += "</b>";
    s.remove_prefix(close + 2);
  }
}

}  // namespace

std::string inline_markup(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 16);
  while (!s.empty()) {
    size_t open = s.find('`');
    size_t close = open == std::string_view::npos ? open : s.find('`', open + 1);
    if (close == std::string_view::npos || close == open + 1) {
      append_bold(out, s);
      break;
    }
    append_bold(out, s.substr(0, open));
    out += "<code>";
    append_escaped(out, s.substr(open + 1, close - open - 1));
    out += "</code>";
    s.remove_prefix(close + 1);
  }
  return out;
}

}  // namespace triage::html
