#pragma once
// Where and when, for "In short" (verdict_reply.h): the host, devices, ranks and pids, and
// the first time, that the findings a reply speaks of carry in their values, their timeline
// events or their evidence lines ("NPU 2", "device_id=4", "rank 3", "PID: 1234"), and the
// rank of a named process from its environ. Of the failure the verdict names, not of every
// line those findings hold (docs/reports.md, "In short"):
// - after a reboot, what the current boot logged, when the findings hold any (plogs kept on
//   disk from before the reboot are another failure);
// - the latest failure of the findings' logs: times more than kFailureGap apart are two
//   failures (a stall of another job two days before is not this one);
// - the collector's own probes (run at collection) give a time only when nothing else does;
// - on the reply's host, with that host's clock skew against the fleet taken off (the
//   offsets collective/wait-root measured, its value clock_offsets).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "correlator/passes/line_times.h"
#include "correlator/passes/process_ranks.h"
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
  // "05/22 09:09:35": the earliest year-less time as written (line_times.h), when neither
  // of the above: shown as local and without a year, never converted
  std::string first_yearless, yearless_order;
  bool year_estimated = false;   // first_utc_us (or first_local) is a job line's whose year the bundle gave
  bool from_collection = false;  // first_utc_us is a probe's: no log line had a time
  std::string corrected_host;    // whose clock skew was taken off first_utc_us ("" none)
  double corrected_seconds = 0;  // that skew: > 0 its clock read later than the fleet's
};

// Two failures, not one, when the findings' times are this far apart: a failure's lines (the
// first error, the other ranks' timeouts an HCCL_EXEC_TIMEOUT later, the traceback) come
// within an hour or two.
constexpr int64_t kFailureGapUs = int64_t{6} * 3600 * 1000000;

ReplyPlaces reply_places(const std::vector<Finding>& findings, const std::vector<size_t>& about,
                         const Timeline& timeline, const std::string& host, const RanksByProcess& ranks = {},
                         const LineTimes& times = {});

// Numbers an evidence line names after `device`, `NPU`, `devId`, `rank`, `pid` (kind "device",
// "rank" or "pid"); a word before the keyword ("remote_rank", "visible devices") does not count.
// The pid of a CANN plog or MindSpore header, `[ERROR] RUNTIME(4242,python3):` (a module name
// in capitals, the pid, the process or thread), counts too: a line without a time has it.
void scan_places(std::string_view line, std::vector<std::string>& devices, std::vector<std::string>& ranks,
                 std::vector<std::string>& pids);

// The first "YYYY-MM-DD?HH:MM:SS" in a line, as "YYYY-MM-DD HH:MM:SS" ("" when none).
std::string scan_time(std::string_view line);

// "Where: host node07, device 0, pid 48213 and 31544." ("" with nothing to name).
std::string where_line(const ReplyPlaces& p);
// "When: first at 2026-09-02 07:38:31 UTC (15:38:31 +08:00 host time)." ("" without a time).
std::string when_line(const ReplyPlaces& p);

}  // namespace triage
