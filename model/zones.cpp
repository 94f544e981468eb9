#include "model/zones.h"

namespace triage {

std::optional<ZoneChoice> zone_for_process(const BundleFacts& facts, std::optional<int64_t> pid,
                                           const AnalyzeOptions& options) {
  if (pid) {
    auto it = facts.processes.by_pid.find(*pid);
    if (it != facts.processes.by_pid.end() && it->second.zone)
      return ZoneChoice{*it->second.zone,
                        it->second.zone_assumed ? TimeBasis::local_assumed_zone
                                                : TimeBasis::local_known_zone,
                        it->second.zone_origin};
  }
  if (facts.system.host_zone)
    return ZoneChoice{*facts.system.host_zone, TimeBasis::local_known_zone,
                      facts.system.host_zone_origin};
  if (options.assumed_zone)
    return ZoneChoice{*options.assumed_zone, TimeBasis::local_assumed_zone,
                      "--utc-offset " + options.assumed_zone_name};
  if (options.utc_offset_seconds)
    return ZoneChoice{ZoneRule::fixed(*options.utc_offset_seconds),
                      TimeBasis::local_assumed_zone, "--utc-offset"};
  return std::nullopt;
}

Timestamp local_to_timestamp(const CivilTime& local, const std::optional<ZoneChoice>& zone,
                             std::string_view original) {
  Timestamp t;
  t.original = std::string(original);
  if (!zone || !local.valid()) return t;
  t.utc_us = zone->rule.local_to_utc_us(local);
  t.basis = zone->basis;
  return t;
}

Timestamp local_without_year_to_timestamp(const CivilTime& month_day_time,
                                          const std::optional<ZoneChoice>& zone,
                                          std::optional<int64_t> collected_at_us,
                                          std::string_view original) {
  if (!zone || !collected_at_us) {
    Timestamp t;
    t.original = std::string(original);
    return t;
  }
  return estimate_year(month_day_time, zone->rule, *collected_at_us, original);
}

}  // namespace triage
