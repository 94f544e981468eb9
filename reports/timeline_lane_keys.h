#pragma once
// The lanes of the HTML timeline (docs/html-report.md): an event is drawn in the lane of its
// rank or device where it has one, else in its source's lane (ordered as in
// model/timeline_lanes.h); its source is then the mark's colour. The rank is not on the
// event: it is the RANK (else RANK_ID) of the event's process, from processes/<pid>/environ.
// A process whose events name exactly one device lends that device to its other events.
// With several hosts, rank and device lanes carry the host's name. At most 64 rank and device
// lanes (the lowest); events past them stay in their source's lane. Presentation only.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "correlator/passes/process_ranks.h"  // RanksByProcess, ranks_from_environ
#include "model/timeline.h"

namespace triage {

struct TimelineLane {
  std::string host;   // "" unless several hosts are on the timeline
  std::string label;  // "rank 7 dev 1", "dev 0", "plog" (without the host)
  std::string title;  // hover text: what the lane holds
  bool by_source = false;
};

struct TimelineLanes {
  std::vector<TimelineLane> lanes;  // drawing order: ranks, devices, then sources
  std::vector<size_t> of_event;     // lane index per Timeline::events index
};

TimelineLanes assign_lanes(const Timeline& t, const RanksByProcess& ranks);

// Index of the source in model/timeline_lanes.h, or its size for other sources.
size_t source_index(std::string_view source);

}  // namespace triage
