#pragma once
// A device fault event id as the drivers print it: `0x` and 4 to 8 hex digits (`0x80E18402`),
// in the device logs' `event_id=` lines and npu-smi's `event id=` rows alike. Kept lower-case
// so one knowledge row matches every form.
#include <cctype>
#include <string>
#include <string_view>

namespace triage {

// Reads the id at `at` into `out`; returns the position after its digits, or npos (and `out`
// unspecified) when no id of that shape starts there.
inline size_t read_event_id(std::string_view text, size_t at, std::string& out) {
  if (at + 2 > text.size() || text[at] != '0' || (text[at + 1] != 'x' && text[at + 1] != 'X'))
    return std::string_view::npos;
  size_t end = at + 2;
  while (end < text.size() && std::isxdigit(static_cast<unsigned char>(text[end]))) ++end;
  if (end - at - 2 < 4 || end - at - 2 > 8) return std::string_view::npos;
  out.assign("0x");
  for (size_t k = at + 2; k < end; ++k)
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(text[k])));
  return end;
}

}  // namespace triage
