#pragma once
// `timeline --pid/--device/--rank/--grep`: keeps the events of one process, device or rank, or
// whose message matches a pattern, after the timeline was built and its own filters
// (--since/--until/--source/--min-severity) ran; the events left out are counted with theirs.
#include <cstdint>
#include <optional>
#include <string>

#include "model/host_facts.h"
#include "model/timeline.h"

namespace triage::cli {

struct TimelineSubset {
  std::optional<int64_t> pid, device, rank;
  std::string grep;  // RE2, searched in the event's message
  bool empty() const { return !pid && !device && !rank && grep.empty(); }
};

// "" or why the subset cannot be applied (a pattern RE2 refuses).
std::string apply_timeline_subset(const TimelineSubset& subset, const EvidenceSet& evidence, Timeline& timeline);

}  // namespace triage::cli
