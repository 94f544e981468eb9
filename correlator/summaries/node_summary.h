#pragma once
// The per-node summaries of `analyze --format summary` (model/node_summary.h), one per host
// group, from the report's findings and timeline and the facts behind them.
#include <vector>

#include "knowledge/fleet_roles.h"
#include "knowledge/wait_edges.h"
#include "model/host_facts.h"
#include "model/node_summary.h"
#include "model/report.h"

namespace triage {

// `report` is complete (findings sorted, timeline built); `roles` says what each finding
// means for the node (origin, waiter) and which log lines name a collective; `waits` which
// signature hits name the rank a line's rank waits on.
std::vector<NodeSummary> summarize_nodes(const Report& report, const EvidenceSet& evidence,
                                         const FleetRoles& roles, const WaitEdges& waits);

}  // namespace triage
