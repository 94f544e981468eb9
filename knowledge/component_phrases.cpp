#include "knowledge/component_phrases.h"

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"

namespace triage {

namespace {
// Shorter phrases are ordinary words ("failed", "socket") and would name a component wrongly.
constexpr size_t kMinPhrase = 8;
}  // namespace

ComponentPhrases parse_component_phrases(std::string_view content, const std::string& name,
                                         std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"component", "phrase", "source"};
  ComponentPhrases out;
  for_each_table_row(content, name, kHeader, errors, [&](const std::string& where, const auto& f) {
    if (f[0].empty() || f[0].find(' ') != std::string_view::npos)
      return errors.push_back(where + ": the component is empty or holds a blank");
    if (f[1].size() < kMinPhrase || f[1].front() == ' ' || f[1].back() == ' ')
      return errors.push_back(where + ": the phrase '" + std::string(f[1]) + "' is shorter than " +
                              std::to_string(kMinPhrase) + " characters or starts or ends with a blank");
    if (f[2].empty()) return errors.push_back(where + ": the source is empty");
    for (const auto& r : out.rows)
      if (r.phrase == f[1]) return errors.push_back(where + ": the phrase '" + r.phrase + "' is listed twice");
    out.rows.push_back({std::string(f[0]), std::string(f[1])});
  });
  return out;
}

std::string_view ComponentPhrases::find(std::string_view text) const {
  for (const auto& r : rows)
    if (text.find(r.phrase) != std::string_view::npos) return r.component;
  return {};
}

const ComponentPhrases& component_phrases_for(const std::string& dir) {
  return cached_table<ComponentPhrases>(
      kComponentPhrasesFile, dir, [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return parse_component_phrases(c, n, e);
      });
}

}  // namespace triage
