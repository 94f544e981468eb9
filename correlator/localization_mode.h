#pragma once
// localization-mode: see docs/findings/device.md for ids, kinds and wording.
#include <vector>

#include "model/finding.h"
#include "model/host_facts.h"
#include "model/options.h"

namespace triage {

void analyze_localization_mode(const EvidenceSet& evidence, const AnalyzeOptions& options, std::vector<Finding>& out);

}  // namespace triage
