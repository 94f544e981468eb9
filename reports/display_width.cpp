#include "reports/display_width.h"

#include <algorithm>
#include <cstdio>

#include "reports/display_width_table.h"

namespace triage {
namespace {

using width_table::CodepointRange;

bool in_table(char32_t cp, const CodepointRange* table, size_t count) {
  const CodepointRange* end = table + count;
  const CodepointRange* it =
      std::upper_bound(table, end, cp, [](char32_t c, const CodepointRange& r) { return c < r.first; });
  return it != table && cp <= (it - 1)->last;
}

}  // namespace

Utf8Step decode_utf8(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b0 = byte(i);
  if (b0 < 0x80) return {b0, 1, true};
  size_t len;
  char32_t cp;
  char32_t min;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return {};  // continuation byte, C0/C1 (overlong lead) or F5..FF
  }
  if (i + len > s.size()) return {};
  for (size_t k = 1; k < len; ++k) {
    unsigned char b = byte(i + k);
    if ((b & 0xC0) != 0x80) return {};
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {};
  return {cp, static_cast<uint8_t>(len), true};
}

int codepoint_width(char32_t cp) {
  if (cp < 0x300) return 1;  // fast path: no mark, format or wide character below U+0300
  if (in_table(cp, width_table::kZero, width_table::kZeroCount)) return 0;
  if (in_table(cp, width_table::kWide, width_table::kWideCount)) return 2;
  return 1;
}

size_t display_width(std::string_view s) {
  size_t width = 0;
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {  // ASCII without decoding
      ++width, ++i;
      continue;
    }
    Utf8Step step = decode_utf8(s, i);
    width += step.valid ? codepoint_width(step.cp) : 1;
    i += step.len;
  }
  return width;
}

size_t prefix_fitting(std::string_view s, size_t columns) {
  size_t width = 0, i = 0;
  while (i < s.size()) {
    Utf8Step step = decode_utf8(s, i);
    size_t w = step.valid ? codepoint_width(step.cp) : 1;
    if (width + w > columns) break;
    width += w;
    i += step.len;
  }
  return i;
}

std::string printable_utf8(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  auto hex_byte = [&](unsigned char c) {
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  };
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) hex_byte(c);
      else out += static_cast<char>(c);
      ++i;
      continue;
    }
    Utf8Step step = decode_utf8(s, i);
    if (!step.valid) {
      hex_byte(c);
    } else if (shown_escaped(step.cp)) {
      char buf[16];
      int n = std::snprintf(buf, sizeof buf, "\\u{%04X}", static_cast<unsigned>(step.cp));
      out.append(buf, static_cast<size_t>(n));
    } else {
      out.append(s.substr(i, step.len));
    }
    i += step.len;
  }
  return out;
}

bool shown_escaped(char32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
         cp == 0x2028 || cp == 0x2029;
}

std::string_view east_asian_width_unicode_version() { return width_table::kUnicodeVersion; }

}  // namespace triage
