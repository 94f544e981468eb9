#pragma once
// Which zone converts a process's local times (plog lines carry local time without a zone).
// Precedence: processes/<pid>/tz.txt, else the host's system/time.txt (or localtime.tzif),
// else --utc-offset, else none (and the time stays unknown, said so).
#include <optional>
#include <string>
#include <string_view>

#include "model/host_facts.h"
#include "model/options.h"
#include "model/time.h"

namespace triage {

struct ZoneChoice {
  ZoneRule rule;
  TimeBasis basis = TimeBasis::local_known_zone;  // or local_assumed_zone
  std::string origin;  // "processes/123/tz.txt", "system/time.txt", "--utc-offset"
};

std::optional<ZoneChoice> zone_for_process(const BundleFacts& facts, std::optional<int64_t> pid,
                                           const AnalyzeOptions& options);

// A local reading made into a Timestamp with the chosen zone (unknown when none).
Timestamp local_to_timestamp(const CivilTime& local, const std::optional<ZoneChoice>& zone,
                             std::string_view original);

// A year-less local reading (syslog "Mar  1 12:00:00"): the year comes from the collection
// time (see estimate_year); unknown without a zone or a collection time.
Timestamp local_without_year_to_timestamp(const CivilTime& month_day_time,
                                          const std::optional<ZoneChoice>& zone,
                                          std::optional<int64_t> collected_at_us,
                                          std::string_view original);

}  // namespace triage
