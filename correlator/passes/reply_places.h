#pragma once
// Where and when, for "In short" (verdict_reply.h): the host, devices, ranks and pids, and
// the first time, that the findings a reply speaks of carry in their values, their timeline
// events or their evidence lines ("NPU 2", "device_id=4", "rank 3", "PID: 1234").
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/finding.h"
#include "model/timeline.h"

namespace triage {

struct ReplyPlaces {
  std::string host;
  std::vector<std::string> devices, ranks, pids;  // each value once, in the order found
  std::optional<int64_t> first_utc_us;
  std::optional<int> local_offset_seconds;  // the host's offset at that instant, if known
  std::string named;        // what the next check says to start with ("peer 90.90.92.240/1")
  std::string first_local;  // "2026-09-04 09:25:58": the earliest time without a zone, when no UTC
};

ReplyPlaces reply_places(const std::vector<Finding>& findings, const std::vector<size_t>& about,
                         const Timeline& timeline, const std::string& host);

// Numbers an evidence line names after `device`, `NPU`, `devId`, `rank`, `pid` (kind "device",
// "rank" or "pid"); a word before the keyword ("remote_rank", "visible devices") does not count.
void scan_places(std::string_view line, std::vector<std::string>& devices, std::vector<std::string>& ranks,
                 std::vector<std::string>& pids);

// The first "YYYY-MM-DD?HH:MM:SS" in a line, as "YYYY-MM-DD HH:MM:SS" ("" when none).
std::string scan_time(std::string_view line);

// "Where: host node07, device 0, pid 48213 and 31544." ("" with nothing to name).
std::string where_line(const ReplyPlaces& p);
// "When: first at 2026-09-02 07:38:31 UTC (15:38:31 +08:00 host time)." ("" without a time).
std::string when_line(const ReplyPlaces& p);

}  // namespace triage
