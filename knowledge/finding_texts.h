#pragma once
// The words of findings as data (knowledge/findings/<area>.tsv): per finding id its title,
// what it supports, what it does not prove, the next checks, and for `explain` its meaning,
// severity range and how to settle it. An analysis emits the id, values and evidence, then
// render_finding_words() writes the words (plaso's formatter model). These entries are the
// finding catalogue too (knowledge/finding_catalogue.h).
// Format: docs/knowledge.md ("Finding texts").
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/finding.h"

namespace triage {

constexpr std::string_view kFindingTextsFolder = "findings/";

struct FindingText {
  std::string id;  // "device-access/dcmi-failure", or "<id>#<variant>" for words that differ
  std::string severity, meaning, title, supports, does_not_prove, how_to_settle;
  std::vector<std::string> next_checks;
  std::string where;  // "findings/device-access.tsv:12", its first row
  bool variant() const { return id.find('#') != std::string::npos; }
};

struct FindingTexts {
  std::vector<FindingText> entries;  // in file order, files by name
  const FindingText* find(std::string_view id) const;
};

// Rows `id <TAB> field <TAB> text`, one field each (next_check may repeat, in order). Fields:
// severity, meaning, title, supports, does_not_prove, next_check, how_to_settle. Problems as
// "file:line: message"; a finding (not a variant) needs a severity, meaning, title and
// how_to_settle, and does_not_prove unless it is info.
void parse_finding_texts(std::string_view content, const std::string& name, std::vector<FindingText>& out,
                         std::vector<std::string>& errors);

// A severity ("error") or a range of them ("info..error", low before high): how the catalogue
// and the finding texts say at what level a finding is raised.
bool is_severity_range(std::string_view s);

// Every findings/*.tsv for a --knowledge value ("" = built-in; DIR/findings/x.tsv replaces x).
const FindingTexts& finding_texts_for(const std::string& dir);

// A word for a {name} placeholder of a title, supports, does_not_prove or next check.
using FindingWords = std::vector<std::pair<std::string, std::string>>;

// Writes f.title, supports, does_not_prove and next_checks from the entry of f.id, each field
// of "<id>#<variant>" replacing the entry's where `variant` is given and the variant has it.
// `{name}` (lower case and _) becomes its word; other braces stay as written. Returns false
// (and writes nothing) when no entry has the id.
bool render_finding_words(Finding& f, const FindingTexts& texts, const FindingWords& words = {},
                          std::string_view variant = {});

}  // namespace triage
