#pragma once
// One finding per cause, not per process (knowledge/finding-groups.tsv): findings of one host
// with the same id and values, reported within a window, become one finding with every pid.
#include <vector>

#include "model/finding.h"
#include "model/options.h"

namespace triage {

void group_findings_by_cause(const AnalyzeOptions& options, std::vector<Finding>& findings);

}  // namespace triage
