#pragma once
// observation-point: the Python frame (or sync call) where an asynchronous NPU error surfaced,
// linked to the earlier stall or device error of the same process. The frame is where the
// error was observed, not where it happened. Ids: docs/findings/stall.md.
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

void analyze_observation_point(const AnalysisContext& ctx, std::vector<Finding>& findings);

}  // namespace triage
