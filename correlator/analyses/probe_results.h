#pragma once
// probe-results: reads the probe set (probes/<name>.*) as the domain primer's table does, and
// notes AICore idle in every npu-smi usage sample while a stream is stalled.
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

void analyze_probe_results(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
