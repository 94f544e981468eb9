#pragma once
// knowledge/fleet-roles.tsv: what a finding says about a node's part in a multi-node failure
// (origin: it failed by itself; waiter: it waited on others) and the log patterns that name
// a collective (markers, for clock skew between nodes). Read by correlator/node_summary.
#include <string>
#include <string_view>
#include <vector>

namespace triage {

struct FleetRoleRow {
  std::string match;  // finding | prefix | marker
  std::string text;   // a finding id, an id prefix, or an RE2 pattern with one group
  std::string klass;  // device-error | oom | process-exit | stall | peer-loss | collective-wait | other
  std::string role;   // origin | waiter | context | marker
  std::string meaning;
};

constexpr std::string_view kFleetRolesFile = "fleet-roles.tsv";

struct FleetRoles {
  std::vector<FleetRoleRow> rows;
  // The exact row for `finding_id`, else its longest prefix row; nullptr: class other.
  const FleetRoleRow* of_finding(std::string_view finding_id) const;
};

// Columns match, text, class, role, meaning; problems as "file:line: message".
FleetRoles parse_fleet_roles(std::string_view content, const std::string& name,
                             std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/fleet-roles.tsv replaces it).
const FleetRoles& fleet_roles_for(const std::string& dir);

}  // namespace triage
