#pragma once
// failure-class: what a failure line of job output or a log says failed, by the codes and
// phrases of knowledge/failure-classes.tsv: an operator that rejected its call
// (operator-error), device memory exhausted (device-memory/exhausted), a shared library the
// loader could not resolve (library-load/failed), the job's own code (job-code), an install
// that lacks what the job or chip needs (install-mismatch). Ids and wording:
// docs/findings/failure-classes.md.
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

void analyze_failure_class(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
