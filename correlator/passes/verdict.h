#pragma once
// Ranks root-cause hypotheses from the findings with the rules in knowledge/verdict/.
#include <vector>

#include "model/finding.h"
#include "model/host_facts.h"
#include "model/options.h"
#include "model/verdict.h"

namespace triage {

// `findings` is sorted (sort_findings); FindingLink::index refers to it.
Verdict build_verdict(const std::vector<Finding>& findings, const EvidenceSet& evidence,
                      const AnalyzeOptions& options);

}  // namespace triage
