#pragma once
// environment: a process's Ascend variables naming directories that do not exist as seen
// from that process (ascend/paths.tsv rows seen_from pid:<n>).
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/host_facts.h"

namespace triage {

void analyze_environment(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
