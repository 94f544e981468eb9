#pragma once
// collective: collective-communication failures by class; see docs/findings/collective.md.
#include <vector>

#include "model/finding.h"
#include "model/host_facts.h"
#include "model/options.h"

namespace triage {

void analyze_collective(const EvidenceSet& evidence, const AnalyzeOptions& options, std::vector<Finding>& out);

}  // namespace triage
