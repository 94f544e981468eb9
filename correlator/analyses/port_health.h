#pragma once
// The port checks MindCluster ascend-fd computes from hccn_tool output (Comp_Network_Custom_*),
// over the hccn_tool facts of one bundle: one `collective/port-health` finding per rule of
// knowledge/port-health.tsv that some port breaks, its variant the rule
// (knowledge/findings/collective.tsv). Called by the collective analysis, which knows whether
// a collective failure is also seen (then the finding is an error, else a warning).
#include <vector>

#include "knowledge/finding_texts.h"
#include "knowledge/port_health.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

void port_health(const BundleFacts& b, const PortHealthRules& rules, const FindingTexts& texts,
                 bool collective_failed, std::vector<Finding>& out);

// "Tue Aug  1 14:44:40 2022" (hccn_tool -link_stat, C locale) as seconds since 1970, or -1.
int64_t link_stat_seconds(std::string_view when);

}  // namespace triage
