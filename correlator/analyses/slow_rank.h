#pragma once
// slow-rank (issue 37, "slow, not stuck"): a rank that is slow makes the others time out. From
// the collection-time readings (model/facts_load.h) it names AI Cores clocked below their rated
// frequency while busy, a chip hotter than the alarm temperature, and a host whose CPUs are
// contended (PSI, load above the CPUs, an NPU process mostly preempted), with their figures.
// Limits: knowledge/slow-limits.tsv. Findings: docs/findings/slow.md.
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/finding.h"

namespace triage {

void analyze_slow_rank(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
