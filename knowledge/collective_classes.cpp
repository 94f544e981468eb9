#include "knowledge/collective_classes.h"

#include <set>
#include <utility>

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"

namespace triage {

std::string_view CollectiveClasses::find(std::string_view match, std::string_view text) const {
  for (const auto& r : rows)
    if (r.match == match && r.text == text) return r.klass;
  return {};
}

CollectiveClasses parse_collective_classes(std::string_view content, const std::string& name,
                                           std::vector<std::string>& errors) {
  CollectiveClasses out;
  std::set<std::pair<std::string, std::string>> seen;
  for_each_table_row(content, name, {"match", "text", "class", "why"}, errors,
                     [&](const std::string& where, const std::vector<std::string_view>& f) {
                       CollectiveClassRow r{std::string(f[0]), std::string(f[1]), std::string(f[2]),
                                            std::string(f[3])};
                       if (r.match != "signature" && r.match != "code")
                         return errors.push_back(where + ": match '" + r.match + "' is not signature or code");
                       if (r.text.empty() || r.why.empty())
                         return errors.push_back(where + ": text and why are required");
                       if (!r.klass.starts_with("collective/") || r.klass.size() == 11)
                         return errors.push_back(where + ": class '" + r.klass + "' is not a collective/* finding id");
                       if (!seen.insert({r.match, r.text}).second)
                         return errors.push_back(where + ": duplicate " + r.match + " " + r.text);
                       out.rows.push_back(std::move(r));
                     });
  return out;
}

const CollectiveClasses& collective_classes_for(const std::string& dir) {
  return cached_table<CollectiveClasses>(kCollectiveClassesFile, dir, parse_collective_classes);
}

}  // namespace triage
