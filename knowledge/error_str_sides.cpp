#include "knowledge/error_str_sides.h"

#include <fmt/format.h>

#include <set>

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"

namespace triage {

ErrorStrSides parse_error_str_sides(std::string_view content, const std::string& name,
                                    std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"phrase", "side", "meaning", "sample", "source"};
  static const std::set<std::string_view> kSides = {"software", "hardware", "neither"};
  ErrorStrSides out;
  std::set<std::string> seen;
  std::vector<std::string> where_of;  // each kept row's "file:line", for the sample check
  for_each_table_row(content, name, kHeader, errors, [&](const std::string& where, const auto& f) {
    ErrorStrSide r{std::string(f[0]), std::string(f[1]), std::string(f[2]), std::string(f[3]), std::string(f[4])};
    if (!kSides.count(r.side))
      return errors.push_back(where + ": side '" + r.side + "' is not software, hardware or neither");
    if (r.phrase.empty() || r.meaning.empty() || r.sample.empty() || r.source.empty())
      return errors.push_back(where + ": phrase, meaning, sample and source are required");
    if (!seen.insert(r.phrase).second) return errors.push_back(where + ": duplicate phrase '" + r.phrase + "'");
    out.rows.push_back(std::move(r));
    where_of.push_back(where);
  });
  // Order matters (first match wins): every sample must land on its own row.
  for (size_t i = 0; i < out.rows.size(); ++i) {
    const ErrorStrSide* got = out.of(out.rows[i].sample);
    if (got != &out.rows[i])
      errors.push_back(fmt::format("{}: sample '{}' is classified by {}, not by its own phrase '{}'", where_of[i],
                                   out.rows[i].sample,
                                   got ? fmt::format("the earlier phrase '{}'", got->phrase) : "no row",
                                   out.rows[i].phrase));
  }
  return out;
}

const ErrorStrSide* ErrorStrSides::of(std::string_view text) const {
  if (text.empty()) return nullptr;
  for (const auto& r : rows)
    if (text.find(r.phrase) != std::string_view::npos) return &r;
  return nullptr;
}

const ErrorStrSides& error_str_sides_for(const std::string& dir) {
  return cached_table<ErrorStrSides>(
      kErrorStrSidesFile, dir, [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return parse_error_str_sides(c, n, e);
      });
}

}  // namespace triage
