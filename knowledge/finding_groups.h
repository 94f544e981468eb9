#pragma once
// knowledge/finding-groups.tsv: which findings of several processes are one cause (the same
// stream reported by every rank at the same time). Read by correlator/finding_groups.
#include <string>
#include <string_view>
#include <vector>

namespace triage {

struct FindingGroupRule {
  std::string id;                 // finding id
  std::vector<std::string> same;  // value keys that must be equal
  std::string within;             // value key holding an ISO-8601 UTC time, "" = none
  int seconds = 0;                // window from the group's earliest `within` time
  std::string why;
};

constexpr std::string_view kFindingGroupFile = "finding-groups.tsv";

// Columns id, same, within, seconds, why; problems as "file:line: message".
std::vector<FindingGroupRule> parse_finding_groups(std::string_view content, const std::string& name,
                                                   std::vector<std::string>& errors);

// The rules for a --knowledge value ("" = built-in; DIR/finding-groups.tsv replaces them).
const std::vector<FindingGroupRule>& finding_groups_for(const std::string& dir);

}  // namespace triage
