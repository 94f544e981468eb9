#pragma once
// Builds the one-axis UTC timeline from facts and findings (model/timeline.h).
#include <vector>

#include "model/finding.h"
#include "model/host_facts.h"
#include "model/options.h"
#include "model/timeline.h"

namespace triage {

Timeline build_timeline(const std::vector<Finding>& findings, const EvidenceSet& evidence,
                        const AnalyzeOptions& options);

}  // namespace triage
