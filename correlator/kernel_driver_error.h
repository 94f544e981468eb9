#pragma once
// kernel-driver-error: see docs/findings/device.md for ids, kinds and wording.
#include <vector>

#include "model/finding.h"
#include "model/host_facts.h"
#include "model/options.h"

namespace triage {

void analyze_kernel_driver_error(const EvidenceSet& evidence, const AnalyzeOptions& options, std::vector<Finding>& out);

}  // namespace triage
