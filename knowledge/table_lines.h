#pragma once
// The one line loop of the knowledge tables (*.tsv): '\r' stripped, blank lines and '#'
// comments skipped, the rest split on tabs. Line numbers count every line, for errors.
#include <string>
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

// The tables with a fixed header: the first data line must be `header` to the letter, every
// later one has as many fields. f(const std::string& where, fields) for each row, `where` being
// "name:line" for its errors. Errors name the file and line; `shown` is the header as the
// error spells it (default: the columns joined by ", "). Returns whether there was a header.
template <class F>
bool for_each_table_row(std::string_view content, const std::string& name,
                        const std::vector<std::string_view>& header, std::vector<std::string>& errors,
                        F&& f, std::string_view shown = {}) {
  bool have_header = false;
  for_each_table_line(content, [&](size_t line_no, const std::vector<std::string_view>& fields) {
    std::string where = name + ":" + std::to_string(line_no);
    if (!have_header) {
      have_header = true;
      if (fields == header) return;
      std::string want(shown);
      for (size_t i = 0; shown.empty() && i < header.size(); ++i) {
        if (i > 0) want += ", ";
        want += header[i];
      }
      return errors.push_back(where + ": header must be " + want);
    }
    if (fields.size() != header.size())
      return errors.push_back(where + ": " + std::to_string(fields.size()) + " fields, want " +
                              std::to_string(header.size()));
    f(where, fields);
  });
  if (!have_header) errors.push_back(name + ": no header line");
  return have_header;
}

}  // namespace triage
