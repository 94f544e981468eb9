#pragma once
// The one line loop of the knowledge tables (*.tsv): '\r' stripped, blank lines and '#'
// comments skipped, the rest split on tabs. Line numbers count every line, for errors.
#include <string_view>
#include <vector>

#include "model/strings.h"

namespace triage {

// f(size_t line_no, const std::vector<std::string_view>& fields) for each data line.
template <class F>
void for_each_table_line(std::string_view content, F&& f) {
  std::vector<std::string_view> fields;
  size_t line_no = 0;
  while (!content.empty()) {
    size_t nl = content.find('\n');
    std::string_view line = content.substr(0, nl);
    content = nl == std::string_view::npos ? std::string_view{} : content.substr(nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    split_into(line, '\t', fields);
    f(line_no, fields);
  }
}

}  // namespace triage
