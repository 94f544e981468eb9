#pragma once
// The finding catalogue: for every finding id the analyzer can raise (the entries of
// knowledge/findings/<area>.tsv, knowledge/finding_texts.h), what it means, at what severity
// it is raised, what it does not prove and how to settle it. `explain` prints it; `knowledge
// check` checks the verdict rules, signature outcomes and grouping rules against its ids.
#include <string>
#include <string_view>
#include <vector>

namespace triage {

struct CatalogueEntry {
  std::string id;        // "stream-stall", "device-exception/hbm-ecc"
  std::string severity;  // the range it is raised at: "error", "info..error"
  std::string meaning, does_not_prove, how_to_settle;
};

// The knowledge file that held the catalogue before every area's words became data: an
// override that still has one is told where its rows go now.
constexpr std::string_view kRetiredCatalogueFile = "findings.tsv";

// The catalogue for a --knowledge value ("" = built-in; DIR/findings/<area>.tsv replaces an
// area), in the order of the area files.
const std::vector<CatalogueEntry>& finding_catalogue_for(const std::string& dir);
const CatalogueEntry* find_catalogue_entry(const std::vector<CatalogueEntry>& c, std::string_view id);

}  // namespace triage
