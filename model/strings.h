#pragma once
// Small text helpers every stage shares (one copy each): ASCII character classes, trimming
// blanks, lower-casing, splitting on one separator, shortening on a UTF-8 boundary. Pieces
// are views into the input.
#include <string>
#include <string_view>
#include <vector>

namespace triage {

// ASCII character classes: <cctype>'s depend on the locale and take an int (a negative char
// is undefined behaviour), and the readers must read the same bytes the same way everywhere.
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }
constexpr bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
constexpr bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }

// Blanks (space, tab, carriage return) cut from the ends of a line.
constexpr bool is_line_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
constexpr std::string_view trim_left(std::string_view s) {
  while (!s.empty() && is_line_blank(s.front())) s.remove_prefix(1);
  return s;
}
constexpr std::string_view trim_right(std::string_view s) {
  while (!s.empty() && is_line_blank(s.back())) s.remove_suffix(1);
  return s;
}
constexpr std::string_view trim(std::string_view s) { return trim_right(trim_left(s)); }

// ASCII letters lower-cased; other bytes (UTF-8 included) unchanged.
std::string ascii_lower(std::string_view s);

// Every piece between `sep`s, empty ones included ("a\t\tb" -> "a", "", "b"). The first form
// reuses `out`'s capacity, for loops over many lines.
void split_into(std::string_view s, char sep, std::vector<std::string_view>& out);
std::vector<std::string_view> split(std::string_view s, char sep);

// At most `max` bytes (max > 3), cut on a UTF-8 character boundary, "..." when cut.
std::string shorten_utf8(std::string_view s, size_t max);

}  // namespace triage
