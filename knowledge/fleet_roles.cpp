#include "knowledge/fleet_roles.h"

#include <re2/re2.h>

#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "knowledge/knowledge.h"
#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"

namespace triage {

FleetRoles parse_fleet_roles(std::string_view content, const std::string& name,
                             std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"match", "text", "class", "role", "meaning"};
  static const std::map<std::string_view, std::string_view> kRoleOfClass = {
      {"device-error", "origin"}, {"oom", "origin"},           {"process-exit", "origin"},
      {"stall", "waiter"},        {"peer-loss", "waiter"},     {"collective-wait", "waiter"},
      {"other", "context"}};
  FleetRoles out;
  std::set<std::pair<std::string, std::string>> seen;
  for_each_table_row(content, name, kHeader, errors, [&](const std::string& where, const auto& f) {
    FleetRoleRow r{std::string(f[0]), std::string(f[1]), std::string(f[2]), std::string(f[3]),
                   std::string(f[4])};
    if (r.text.empty() || r.meaning.empty()) return errors.push_back(where + ": text and meaning are required");
    if (r.match == "marker") {
      RE2 re(r.text, RE2::Quiet);
      if (!re.ok()) return errors.push_back(where + ": pattern does not compile: " + re.error());
      if (re.NumberOfCapturingGroups() < 1) return errors.push_back(where + ": a marker pattern needs a group");
      if (r.role != "marker") return errors.push_back(where + ": a marker row has role marker");
    } else if (r.match == "finding" || r.match == "prefix") {
      auto it = kRoleOfClass.find(r.klass);
      if (it == kRoleOfClass.end()) return errors.push_back(where + ": unknown class '" + r.klass + "'");
      if (it->second != r.role)
        return errors.push_back(where + ": class " + r.klass + " has role " + std::string(it->second));
    } else {
      return errors.push_back(where + ": match '" + r.match + "' is not finding, prefix or marker");
    }
    if (!seen.insert({r.match, r.text}).second)
      return errors.push_back(where + ": duplicate " + r.match + " " + r.text);
    out.rows.push_back(std::move(r));
  });
  return out;
}

const FleetRoleRow* FleetRoles::of_finding(std::string_view id) const {
  const FleetRoleRow* best = nullptr;
  for (const auto& r : rows) {
    if (r.match == "finding" && r.text == id) return &r;
    if (r.match == "prefix" && id.starts_with(r.text) && (!best || r.text.size() > best->text.size()))
      best = &r;
  }
  return best;
}

const FleetRoles& fleet_roles_for(const std::string& dir) {
  return cached_table<FleetRoles>(
      kFleetRolesFile, dir, [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return parse_fleet_roles(c, n, e);
      });
}

}  // namespace triage
