#pragma once
// device-access: devices the process or the host cannot reach; see docs/findings/device-access.md.
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

void analyze_device_access(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
