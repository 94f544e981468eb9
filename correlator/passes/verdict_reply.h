#pragma once
// The verdict as one paragraph in plain words, for an engineer to paste into a ticket reply:
// the likely cause, what points to it, what it explains, the next check and what is not
// proven; or what was seen and the one thing to collect when the evidence cannot decide.
#include <string>
#include <vector>

#include "model/finding.h"
#include "model/verdict.h"

namespace triage {

std::string verdict_reply(const Verdict& v, const std::vector<Finding>& findings);

}  // namespace triage
