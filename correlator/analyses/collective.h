#pragma once
// collective: collective-communication failures by class; see docs/findings/collective.md.
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

void analyze_collective(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
