#pragma once
// The result of analysis that renderers turn into text, JSON and the other formats.
#include <string>
#include <vector>

#include "model/bundle_summary.h"
#include "model/finding.h"
#include "model/timeline.h"
#include "model/verdict.h"

namespace triage {

struct Report {
  std::vector<Finding> findings;  // sorted with sort_findings()
  Verdict verdict;                // built from the findings (correlator/verdict.cpp)
  Timeline timeline;              // built from facts and findings (correlator/timeline.cpp)
  // One per EvidenceSet::bundles, same order (correlator/bundle_summary.cpp): renderers
  // show it and compute nothing.
  std::vector<BundleSummary> bundles;

  Severity max_severity() const;
  bool has_warning_or_above() const;
};

}  // namespace triage
