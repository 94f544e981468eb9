#pragma once
// Clock skew between hosts from the collectives they logged (docs/fleet.md, "Clock skew
// between nodes"): each marker (an HCCL operation tag, a collective timeout; the marker rows
// of knowledge/fleet-roles.tsv) that two hosts or more logged is one moment read by several
// clocks; a host's offset is the median, over those markers, of its time minus the (lower)
// median of all hosts' times. Shared by `fleet` (over node summaries) and `analyze` given
// several bundles (collective/wait-root's first errors).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace triage {

struct MarkerSkew {
  int64_t offset_ms = 0;  // > 0: this host's clock reads later than the others' median
  size_t markers = 0;     // shared markers the figure rests on
};

// Smaller offsets are reported but not applied: the spread of arrivals at a collective is
// that large.
constexpr int64_t kMinAppliedSkewMs = 1000;

// markers[i]: host i's (marker key, first time in UTC microseconds). `shared` counts the
// markers two hosts or more logged.
std::vector<std::optional<MarkerSkew>> estimate_marker_skews(
    const std::vector<std::vector<std::pair<std::string, int64_t>>>& markers, size_t& shared);

// The correction to subtract from a host's times, in microseconds: 0 under kMinAppliedSkewMs.
int64_t applied_correction_us(const std::optional<MarkerSkew>& skew);

}  // namespace triage
