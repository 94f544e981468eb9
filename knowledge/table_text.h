#pragma once
// Small helpers of the knowledge tables that keep samples beside their patterns
// (line_shapes.cpp, error_levels.cpp): a sample's `\t` written as two characters, and a
// built-in file's text (the other half of a pattern/sample pair checked together).
#include <string>
#include <string_view>

#include "knowledge/knowledge.h"

namespace triage {

// "a\tb" as written in a TSV cell (backslash, t) -> a real tab.
inline std::string unescape_tabs(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == 't') {
      out += '\t';
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The built-in content of a knowledge file, "" when there is none.
inline std::string builtin_knowledge_content(std::string_view file) {
  for (const auto& f : builtin_knowledge_files())
    if (f.name == file) return f.content;
  return {};
}

}  // namespace triage
