#pragma once
// Host-level facts: identity, collection time and zone, boot.
// Filled by the base parsers (Foundation B); finalize chooses the host zone and name.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/evidence.h"
#include "model/time.h"

namespace triage {

// system/uname.txt (`uname -a`).
struct UnameInfo {
  std::string kernel_name;     // "Linux"
  std::string nodename;        // host name as the kernel knows it
  std::string release;         // `uname -r`
  std::string version;         // "#1 SMP Tue Dec 27 17:50:15 CST 2022"
  std::string machine;         // "aarch64", "x86_64"; empty when not recognisable
  std::string os;              // "GNU/Linux"
  EvidenceRef evidence;
};

// system/time.txt as written by the collector; empty strings are unknown.
struct TimeFile {
  std::optional<int64_t> epoch;  // the one instant the file describes
  std::string utc, local, utc_offset, timezone, tz_posix;
  std::optional<int> utc_offset_seconds;  // utc_offset= understood
  std::optional<ZoneRule> tz_posix_zone;  // tz_posix= understood
  std::optional<int> clk_tck;
  EvidenceRef evidence;
};

// system/localtime.tzif (or a process's copy): what the TZif file gave.
struct TzifFacts {
  std::optional<ZoneRule> zone;
  std::string footer;       // the POSIX string, empty when none
  std::string note;         // a fallback that was taken, or why the file is unusable
  int version = 0;
  EvidenceRef evidence;
};

struct SystemFacts {
  std::string hostname;          // from manifest, else uname (set by finalize)
  std::string hostname_origin;   // "manifest.json host", "system/uname.txt"
  std::string kernel_release;    // uname -r
  std::optional<UnameInfo> uname;
  std::vector<std::pair<std::string, std::string>> os_release;  // in file order, unquoted
  std::optional<std::string> kernel_cmdline;       // /proc/cmdline as collected
  std::vector<std::string> kernel_cmdline_args;    // split on blanks, quotes removed
  std::optional<TimeFile> time_file;
  std::optional<TzifFacts> localtime_tzif;
  std::optional<ZoneRule> host_zone;   // chosen by finalize: tz_posix, else TZif, else utc_offset
  std::string host_zone_origin;        // entry and field that gave it, with any caveat
  std::optional<int64_t> collected_at_us;  // manifest collected_at_utc or time.txt epoch
  std::string collected_at_origin;
  std::optional<int64_t> btime;            // boot time, epoch seconds
  std::string boot_id;                     // with dashes
  std::optional<int64_t> uptime_us;        // at collection
  std::optional<int> clk_tck;              // from time.txt
  std::vector<std::string> notes;          // inconsistencies and assumptions, for the report
  std::vector<EvidenceRef> evidence;

  const std::string* os_release_value(std::string_view key) const {
    for (const auto& [k, v] : os_release)
      if (k == key) return &v;
    return nullptr;
  }
};

}  // namespace triage
