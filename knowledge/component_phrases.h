#pragma once
// knowledge/component-phrases.tsv: phrases of CANN error-report text that name the component a
// report comes from when the report carries no module tag (job output prints none).
#include <string>
#include <string_view>
#include <vector>

namespace triage {

constexpr std::string_view kComponentPhrasesFile = "component-phrases.tsv";

struct ComponentPhrase {
  std::string component;  // "AICPU", "HCCL"
  std::string phrase;     // matched as written
};

struct ComponentPhrases {
  std::vector<ComponentPhrase> rows;  // file order: the first match wins
  // The component of the first phrase found in `text`, "" when none is.
  std::string_view find(std::string_view text) const;
};

// Columns component, phrase, source; problems as "file:line: message".
ComponentPhrases parse_component_phrases(std::string_view content, const std::string& name,
                                         std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/component-phrases.tsv replaces it).
const ComponentPhrases& component_phrases_for(const std::string& dir);

}  // namespace triage
