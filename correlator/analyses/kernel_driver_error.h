#pragma once
// kernel-driver-error: see docs/findings/device.md for ids, kinds and wording.
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

void analyze_kernel_driver_error(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
