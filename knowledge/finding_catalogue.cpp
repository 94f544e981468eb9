#include "knowledge/finding_catalogue.h"

#include <fmt/format.h>

#include <set>

#include "knowledge/finding_texts.h"
#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"
#include "model/severity.h"

namespace triage {

std::vector<CatalogueEntry> parse_finding_catalogue(std::string_view content, const std::string& name,
                                                    std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"id", "severity", "meaning", "does_not_prove",
                                                        "how_to_settle"};
  std::vector<CatalogueEntry> out;
  std::set<std::string> ids;
  bool header = false;
  for_each_table_line(content, [&](size_t line_no, const std::vector<std::string_view>& cols) {
    auto fail = [&](const std::string& m) { errors.push_back(fmt::format("{}:{}: {}", name, line_no, m)); };
    if (!header) {
      header = true;
      if (cols != kHeader) fail("header must be: id, severity, meaning, does_not_prove, how_to_settle");
      return;
    }
    if (cols.size() != kHeader.size())
      return fail(fmt::format("{} columns, expected {}", cols.size(), kHeader.size()));
    CatalogueEntry e{std::string(cols[0]), std::string(cols[1]), std::string(cols[2]),
                     std::string(cols[3]), std::string(cols[4])};
    if (e.id.empty() || e.meaning.empty() || e.how_to_settle.empty()) fail("id, meaning and how_to_settle are required");
    if (!is_severity_range(e.severity)) fail("severity must be a severity or a range such as info..error");
    if (e.severity != "info" && e.does_not_prove.empty()) fail(e.id + ": does_not_prove is required above info");
    if (!ids.insert(e.id).second) fail("duplicate id " + e.id);
    out.push_back(std::move(e));
  });
  if (!header) errors.push_back(name + ": empty");
  return out;
}

const std::vector<CatalogueEntry>& finding_catalogue_for(const std::string& dir) {
  // findings.tsv, then the areas whose words are data (knowledge/findings/*.tsv); an id in
  // both keeps its findings.tsv row (the finding-texts test fails on it).
  return cached_table<std::vector<CatalogueEntry>>(
      kFindingCatalogueFile, dir, [&dir](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        auto rows = parse_finding_catalogue(c, n, e);
        for (const auto& t : finding_texts_for(dir).entries)
          if (!t.variant() && !find_catalogue_entry(rows, t.id))
            rows.push_back({t.id, t.severity, t.meaning, t.does_not_prove, t.how_to_settle});
        return rows;
      });
}

const CatalogueEntry* find_catalogue_entry(const std::vector<CatalogueEntry>& c, std::string_view id) {
  for (const auto& e : c)
    if (e.id == id) return &e;
  return nullptr;
}

}  // namespace triage
