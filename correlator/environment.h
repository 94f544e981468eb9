#pragma once
// environment: a process's Ascend variables naming directories that do not exist as seen
// from that process (ascend/paths.tsv rows seen_from pid:<n>).
#include <vector>

#include "model/host_facts.h"
#include "model/options.h"

namespace triage {

void analyze_environment(const EvidenceSet& evidence, const AnalyzeOptions& options,
                         std::vector<Finding>& out);

}  // namespace triage
