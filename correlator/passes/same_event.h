#pragma once
// One finding per event (knowledge/same-event.tsv, docs/findings.md "One finding per event"):
// when two findings of one host are two readings of the same evidence event, the lower-ranked
// one is folded into the other and listed there as "also read as". Runs after the verdict,
// which weighs every reading; the verdict's links to a folded finding move to the one kept, and
// so do the timeline events of its lines.
#include <vector>

#include "model/finding.h"
#include "model/options.h"
#include "model/timeline.h"
#include "model/verdict.h"

namespace triage {

void fold_same_event(const AnalyzeOptions& options, std::vector<Finding>& findings, Verdict& verdict,
                     Timeline& timeline);

}  // namespace triage
