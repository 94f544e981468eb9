#pragma once
// collective/late-arrival: the ranks of one communicator reached its creation further apart
// than the connect timeout (docs/findings/collective.md).
#include <string_view>
#include <vector>

#include "knowledge/collective_classes.h"
#include "knowledge/finding_texts.h"
#include "knowledge/slow_limits.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

// A signature whose hits carry this capture states when a rank reached a collective call (the
// capture names the call: a communicator's identifier), not a failure; its collective class
// (knowledge/collective-classes.tsv) is collective/late-arrival.
constexpr std::string_view kArrivalKeyCapture = "arrival_key";

// One finding per call whose ranks' first arrivals, over the whole input, lie further apart
// than HCCL_CONNECT_TIMEOUT (the largest a collected process set, else the documented default
// of knowledge/slow-limits.tsv, hccl_connect_timeout_s).
void late_arrival(const EvidenceSet& evidence, const CollectiveClasses& classes, const SlowLimits& limits,
                  const FindingTexts& texts, std::vector<Finding>& out);

}  // namespace triage
