#pragma once
// collective/wait-root: with the lines of several ranks, the rank the others waited on
// (correlator/passes/wait_graph.h over the signature hits knowledge/wait-edges.tsv names).
#include <vector>

#include "correlator/analyses/analysis.h"

namespace triage {

void analyze_collective_wait_root(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
