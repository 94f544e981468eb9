#pragma once
// The zone of each process, looked up once per pid while a family finishes its times.
#include <cstdint>
#include <map>
#include <optional>

#include "model/host_facts.h"
#include "model/options.h"
#include "model/zones.h"

namespace triage {

// Zones looked up once per pid.
class ZoneCache {
 public:
  ZoneCache(const BundleFacts& f, const AnalyzeOptions& o) : facts_(f), options_(o) {}
  const std::optional<ZoneChoice>& for_pid(std::optional<int64_t> pid) {
    int64_t key = pid.value_or(INT64_MIN);
    auto it = cache_.find(key);
    if (it == cache_.end()) it = cache_.emplace(key, zone_for_process(facts_, pid, options_)).first;
    return it->second;
  }

 private:
  const BundleFacts& facts_;
  const AnalyzeOptions& options_;
  std::map<int64_t, std::optional<ZoneChoice>> cache_;
};

}  // namespace triage
