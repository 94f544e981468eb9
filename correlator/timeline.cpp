#include "correlator/timeline.h"

namespace triage {

// Placeholder until the timeline lands: an empty axis.
Timeline build_timeline(const std::vector<Finding>&, const EvidenceSet&, const AnalyzeOptions&) {
  return {};
}

}  // namespace triage
