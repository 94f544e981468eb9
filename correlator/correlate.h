#pragma once
// Runs every analysis over the facts and collects their findings.
#include "model/host_facts.h"
#include "model/options.h"
#include "model/report.h"

namespace triage {

Report correlate(const EvidenceSet& evidence, const AnalyzeOptions& options);

}  // namespace triage
