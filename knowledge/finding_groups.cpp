#include "knowledge/finding_groups.h"

#include <charconv>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "knowledge/knowledge.h"
#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"

namespace triage {

namespace {

std::vector<std::string> split_keys(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    size_t comma = list.find(',');
    out.emplace_back(list.substr(0, comma));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace

std::vector<FindingGroupRule> parse_finding_groups(std::string_view content, const std::string& name,
                                                   std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"id", "same", "within", "seconds", "why"};
  std::vector<FindingGroupRule> out;
  std::set<std::string> seen;
  for_each_table_row(content, name, kHeader, errors, [&](const std::string& where, const auto& f) {
    FindingGroupRule r;
    r.id = std::string(f[0]);
    r.same = split_keys(f[1]);
    r.within = f[2] == "-" ? "" : std::string(f[2]);
    r.why = std::string(f[4]);
    auto [end, ec] = std::from_chars(f[3].data(), f[3].data() + f[3].size(), r.seconds);
    if (ec != std::errc{} || end != f[3].data() + f[3].size() || r.seconds < 0 || r.seconds > 86400)
      return errors.push_back(where + ": seconds '" + std::string(f[3]) + "' is not 0..86400");
    if (r.id.empty() || r.why.empty()) return errors.push_back(where + ": id and why are required");
    for (const auto& k : r.same)
      if (k.empty()) return errors.push_back(where + ": empty key in same '" + std::string(f[1]) + "'");
    if (r.same.empty() && r.within.empty())
      return errors.push_back(where + ": a rule needs same keys or a within time");
    if (!seen.insert(r.id).second) return errors.push_back(where + ": duplicate id " + r.id);
    out.push_back(std::move(r));
  });
  return out;
}

const std::vector<FindingGroupRule>& finding_groups_for(const std::string& dir) {
  return cached_table<std::vector<FindingGroupRule>>(
      kFindingGroupFile, dir, [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return parse_finding_groups(c, n, e);
      });
}

}  // namespace triage
