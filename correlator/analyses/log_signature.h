#pragma once
// log-signature: a knowledge signature whose outcome is "own" matched lines; the finding
// carries the signature's title, explanation and next steps. Signatures with a dedicated
// finding (outcome = that finding's id) or outcome "benign" are not reported here.
// Ids: docs/findings/unexplained.md.
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

void analyze_log_signature(const AnalysisContext& ctx, std::vector<Finding>& findings);

}  // namespace triage
