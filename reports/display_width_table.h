#pragma once
// The generated width tables (display_width_table.cpp): sorted, non-overlapping, merged ranges.
#include <cstddef>

namespace triage::width_table {

struct CodepointRange {
  char32_t first, last;
};

extern const char kUnicodeVersion[];
extern const CodepointRange kWide[];
extern const size_t kWideCount;
extern const CodepointRange kZero[];
extern const size_t kZeroCount;

}  // namespace triage::width_table
