#include "correlator/verdict.h"

namespace triage {

// Placeholder until the verdict rules land: says plainly that nothing was ranked.
Verdict build_verdict(const std::vector<Finding>&, const EvidenceSet&, const AnalyzeOptions&) {
  Verdict v;
  Hypothesis h;
  h.id = "insufficient-evidence";
  h.title = "No verdict: hypothesis ranking is not implemented yet";
  v.ranked.push_back(std::move(h));
  return v;
}

}  // namespace triage
