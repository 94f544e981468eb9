#pragma once
// knowledge/port-health.tsv: the NPU port checks MindCluster ascend-fd computes from hccn_tool
// output (its Comp_Network_Custom_* faults), one row per rule with its threshold and where
// the threshold comes from. Evaluated by correlator/analyses/port_health.cpp over the
// hccn_tool facts (model/facts_network.h); each rule raises `collective/port-health` with the
// rule as variant (knowledge/findings/collective.tsv).
#include <string>
#include <string_view>
#include <vector>

namespace triage {

constexpr std::string_view kPortHealthFile = "port-health.tsv";

struct PortHealthRule {
  std::string rule;       // link-flap, fec-mode, net-health, optical-absent, ip-missing, optical-power, optical-los, optical-lol
  std::string ascend_fd;  // Comp_Network_Custom_01, ...
  std::string query;      // the hccn_tool query it reads: -link_stat, -fec, ...
  // link-flap: seconds; fec-mode, optical-absent: the text that marks the fault;
  // net-health: the statuses that are faults, '|'-separated; optical-los/-lol: the normal flag
  // values, '|'-separated; optical-power, ip-missing: "-" (the module's own thresholds; the
  // host's other ports).
  std::string threshold;
  std::vector<std::string> values;  // threshold split on '|'
  std::string meaning, source;
};

struct PortHealthRules {
  std::vector<PortHealthRule> rules;
  const PortHealthRule* find(std::string_view rule) const;
};

// The rules the analysis implements; the table must hold each once, and no other.
const std::vector<std::string_view>& port_health_rule_ids();

// Columns rule, ascend_fd, query, threshold, meaning, source; problems as "file:line: message".
PortHealthRules parse_port_health(std::string_view content, const std::string& name, std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/port-health.tsv replaces it).
const PortHealthRules& port_health_for(const std::string& dir);

}  // namespace triage
