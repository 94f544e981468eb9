#pragma once
// The rank of a process: RANK (else RANK_ID) of processes/<pid>/environ, which torchrun and
// the Ascend launchers set for every worker. Log lines rarely carry it; the timeline's lanes
// (reports/timeline_lane_keys.h) and "In short" (reply_places.h) read it from here.
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "model/host_facts.h"

namespace triage {

// (host, pid) -> rank; a pid given two ranks (two bundles of one host) is left out.
using RanksByProcess = std::map<std::pair<std::string, int64_t>, int64_t>;

RanksByProcess ranks_from_environ(const EvidenceSet& evidence);

}  // namespace triage
