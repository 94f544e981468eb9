#pragma once
// Host-level facts: identity, collection time and zone, boot, manifest summary.
// Filled by the base parsers (Foundation B).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/evidence.h"
#include "model/time.h"

namespace triage {

struct SystemFacts {
  std::string hostname;          // from manifest, else uname
  std::string kernel_release;    // uname -r
  std::optional<ZoneRule> host_zone;   // from system/time.txt or localtime.tzif
  std::string host_zone_origin;        // entry that gave it
  std::optional<int64_t> collected_at_us;  // manifest collected_at_utc or time.txt epoch
  std::optional<int64_t> btime;            // boot time, epoch seconds
  std::string boot_id;                     // with dashes
  std::vector<EvidenceRef> evidence;
};

}  // namespace triage
