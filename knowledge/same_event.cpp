#include "knowledge/same_event.h"

#include <set>
#include <utility>

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"

namespace triage {

std::vector<SameEventRule> parse_same_event_rules(std::string_view content, const std::string& name,
                                                  std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"keep", "fold", "why"};
  std::vector<SameEventRule> out;
  std::set<std::pair<std::string, std::string>> seen;
  for_each_table_row(content, name, kHeader, errors, [&](const std::string& where, const auto& f) {
    SameEventRule r{std::string(f[0]), std::string(f[1]), std::string(f[2])};
    if (r.keep.empty() || r.fold.empty() || r.why.empty())
      return errors.push_back(where + ": keep, fold and why are required");
    if (r.keep == r.fold) return errors.push_back(where + ": keep and fold are the same id " + r.keep);
    // One row per pair, whichever way round: a second row would contradict the first's keep.
    auto key = r.keep < r.fold ? std::make_pair(r.keep, r.fold) : std::make_pair(r.fold, r.keep);
    if (!seen.insert(key).second)
      return errors.push_back(where + ": duplicate pair " + r.keep + " / " + r.fold);
    out.push_back(std::move(r));
  });
  return out;
}

const std::vector<SameEventRule>& same_event_rules_for(const std::string& dir) {
  return cached_table<std::vector<SameEventRule>>(
      kSameEventFile, dir, [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return parse_same_event_rules(c, n, e);
      });
}

}  // namespace triage
