#pragma once
// The finding catalogue (knowledge/findings.tsv, and the areas whose words are data in
// knowledge/findings/*.tsv, knowledge/finding_texts.h): for every finding id the analyzer can
// raise, what it means, what it does not prove and how to settle it. `explain` prints it;
// `knowledge check` checks the verdict rules against its ids.
#include <string>
#include <string_view>
#include <vector>

namespace triage {

struct CatalogueEntry {
  std::string id;        // "stream-stall", "device-exception/hbm-ecc"
  std::string severity;  // the range it is raised at: "error", "info..error"
  std::string meaning, does_not_prove, how_to_settle;
};

constexpr std::string_view kFindingCatalogueFile = "findings.tsv";

// Columns: id, severity, meaning, does_not_prove, how_to_settle (header line first; '#'
// lines are comments). Problems go to `errors` as "file:line: message".
std::vector<CatalogueEntry> parse_finding_catalogue(std::string_view content, const std::string& name,
                                                    std::vector<std::string>& errors);

// The catalogue for a --knowledge value ("" = built-in; DIR/findings.tsv replaces it), with
// the entries of knowledge/findings/*.tsv after its rows.
const std::vector<CatalogueEntry>& finding_catalogue_for(const std::string& dir);
const CatalogueEntry* find_catalogue_entry(const std::vector<CatalogueEntry>& c, std::string_view id);

}  // namespace triage
