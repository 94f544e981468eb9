#include "correlator/passes/marker_skew.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace triage {

namespace {

// Lower median: deterministic for even counts and always one of the measured values.
int64_t median(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v[(v.size() - 1) / 2];
}

}  // namespace

std::vector<std::optional<MarkerSkew>> estimate_marker_skews(
    const std::vector<std::vector<std::pair<std::string, int64_t>>>& markers, size_t& shared) {
  std::map<std::string, std::vector<std::pair<size_t, int64_t>>> by_key;
  for (size_t i = 0; i < markers.size(); ++i)
    for (const auto& [key, t] : markers[i]) by_key[key].emplace_back(i, t);
  std::vector<std::vector<int64_t>> offsets(markers.size());
  shared = 0;
  for (const auto& [key, seen] : by_key) {
    std::set<size_t> distinct;
    for (const auto& [i, t] : seen) distinct.insert(i);
    if (distinct.size() < 2) continue;
    ++shared;
    std::vector<int64_t> times;
    for (const auto& [i, t] : seen) times.push_back(t);
    int64_t ref = median(times);
    for (const auto& [i, t] : seen) offsets[i].push_back(t - ref);
  }
  std::vector<std::optional<MarkerSkew>> out(markers.size());
  for (size_t i = 0; i < markers.size(); ++i)
    if (!offsets[i].empty()) out[i] = MarkerSkew{median(offsets[i]) / 1000, offsets[i].size()};
  return out;
}

int64_t applied_correction_us(const std::optional<MarkerSkew>& skew) {
  return skew && std::abs(skew->offset_ms) >= kMinAppliedSkewMs ? skew->offset_ms * 1000 : 0;
}

}  // namespace triage
