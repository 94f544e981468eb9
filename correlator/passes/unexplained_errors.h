#pragma once
// unexplained-errors: error lines (plog [ERROR], kernel errors, job-output errors), CANN
// error reports and error codes that no other finding explains and no benign signature
// covers, grouped by source, module, code and masked message. Runs after every other
// analysis: it reads their findings. "Explained" is defined in docs/architecture.md.
// Ids: docs/findings/unexplained.md.
#include <vector>

#include "model/finding.h"
#include "model/host_facts.h"
#include "correlator/analyses/analysis.h"

namespace triage {

// `findings` holds every finding of the other analyses; the new one is appended.
void analyze_unexplained_errors(const AnalysisContext& ctx, std::vector<Finding>& findings);

// The message with digit runs and 0x-hex masked as '#', capped: the grouping key.
std::string message_template(std::string_view text);

}  // namespace triage
