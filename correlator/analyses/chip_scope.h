#pragma once
// chip-scope: the Ascend product of the host (910, 910B, 910_93 (A3), 950, 310, 310P), from
// the NPU PCI ids and the npu-smi chip names, named so the report says which product its
// findings are about. Ids and wording: docs/findings/failure-classes.md.
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

void analyze_chip_scope(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
