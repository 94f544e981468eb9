#pragma once
// device-access: devices the process or the host cannot reach; see docs/findings/device-access.md.
#include <vector>

#include "model/finding.h"
#include "model/host_facts.h"
#include "model/options.h"

namespace triage {

void analyze_device_access(const EvidenceSet& evidence, const AnalyzeOptions& options, std::vector<Finding>& out);

}  // namespace triage
