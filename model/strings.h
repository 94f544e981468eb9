#pragma once
// Small text helpers every stage shares (one copy each): ASCII lower-casing, splitting
// on one separator, shortening on a UTF-8 boundary. Pieces are views into the input.
#include <string>
#include <string_view>
#include <vector>

namespace triage {

// ASCII letters lower-cased; other bytes (UTF-8 included) unchanged.
std::string ascii_lower(std::string_view s);

// Every piece between `sep`s, empty ones included ("a\t\tb" -> "a", "", "b"). The first form
// reuses `out`'s capacity, for loops over many lines.
void split_into(std::string_view s, char sep, std::vector<std::string_view>& out);
std::vector<std::string_view> split(std::string_view s, char sep);

// At most `max` bytes (max > 3), cut on a UTF-8 character boundary, "..." when cut.
std::string shorten_utf8(std::string_view s, size_t max);

}  // namespace triage
