#include "knowledge/zone_abbreviations.h"

#include <set>

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"
#include "model/strings.h"

namespace triage {
namespace {

bool same_upper(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if ((a[i] >= 'a' && a[i] <= 'z' ? a[i] - 32 : a[i]) != b[i]) return false;
  return true;
}

}  // namespace

const ZoneAbbreviation* ZoneAbbreviations::find(std::string_view text) const {
  for (const auto& r : rows)
    if (same_upper(text, r.abbreviation)) return &r;
  return nullptr;
}

ZoneAbbreviations parse_zone_abbreviations(std::string_view content, const std::string& name,
                                           std::vector<std::string>& errors) {
  ZoneAbbreviations out;
  std::set<std::string> seen;
  for_each_table_row(content, name, {"abbreviation", "zones"}, errors,
                     [&](const std::string& where, const std::vector<std::string_view>& f) {
                       ZoneAbbreviation r;
                       r.abbreviation = std::string(f[0]);
                       bool upper = !r.abbreviation.empty();
                       for (char c : r.abbreviation) upper = upper && c >= 'A' && c <= 'Z';
                       if (!upper)
                         return errors.push_back(where + ": abbreviation '" + r.abbreviation +
                                                 "' is not upper-case letters");
                       for (std::string_view z : split(f[1], ','))
                         if (!trim(z).empty()) r.zones.emplace_back(trim(z));
                       if (r.zones.size() < 2)
                         return errors.push_back(where + ": an ambiguous abbreviation names two zones or more");
                       if (!seen.insert(r.abbreviation).second)
                         return errors.push_back(where + ": duplicate " + r.abbreviation);
                       out.rows.push_back(std::move(r));
                     });
  return out;
}

const ZoneAbbreviations& zone_abbreviations_for(const std::string& dir) {
  return cached_table<ZoneAbbreviations>(kZoneAbbreviationsFile, dir, parse_zone_abbreviations);
}

}  // namespace triage
