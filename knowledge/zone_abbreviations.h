#pragma once
// knowledge/zone-abbreviations.tsv: abbreviations that name more than one zone. --utc-offset
// refuses them with the zones they may mean (cli/zone_option.cpp).
#include <string>
#include <string_view>
#include <vector>

namespace triage {

constexpr std::string_view kZoneAbbreviationsFile = "zone-abbreviations.tsv";

struct ZoneAbbreviation {
  std::string abbreviation;         // "CST"
  std::vector<std::string> zones;   // "Asia/Shanghai (+08:00)", ...
};

struct ZoneAbbreviations {
  std::vector<ZoneAbbreviation> rows;
  // The row of `text` (any case); nullptr when the abbreviation is not ambiguous here.
  const ZoneAbbreviation* find(std::string_view text) const;
};

// Columns abbreviation, zones; problems as "file:line: message".
ZoneAbbreviations parse_zone_abbreviations(std::string_view content, const std::string& name,
                                           std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/zone-abbreviations.tsv replaces it).
const ZoneAbbreviations& zone_abbreviations_for(const std::string& dir);

}  // namespace triage
