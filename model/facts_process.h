#pragma once
// Per-process facts from processes/<pid>/ (environ, cmdline, stat, tz, fd).
// Filled by the base parsers (Foundation B); finalize derives the start time and the zone.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/evidence.h"
#include "model/facts_system.h"
#include "model/time.h"

namespace triage {

// processes/<pid>/stat: the fields analyses use.
struct ProcessStat {
  std::string comm;          // without the parentheses; may hold spaces and ')'
  char state = '?';          // R, S, D, Z, T, ...
  int64_t ppid = 0;
  int64_t num_threads = 0;
  uint64_t start_ticks = 0;  // field 22: clock ticks after boot
  EvidenceRef evidence;
};

// processes/<pid>/tz.txt as written; empty strings are unknown.
struct ProcessTzFile {
  std::string tz_env;      // TZ= from the process's environ (empty: unset)
  std::string timezone;    // zone name of its /etc/localtime, if known
  std::string tz_posix;    // footer of its /etc/localtime
  std::string utc_offset;  // "+0800"
  EvidenceRef evidence;
};

struct FdEntry {
  int64_t fd = -1;
  std::string target;  // readlink of /proc/<pid>/fd/<fd>
};

struct ProcessInfo {
  int64_t pid = 0;
  bool has_cmdline = false;
  std::vector<std::string> argv;
  bool has_environ = false;
  std::vector<std::pair<std::string, std::string>> environ;  // in file order
  std::optional<ProcessStat> stat;
  std::optional<Timestamp> start_time;  // stat start ticks / clk_tck + btime (finalize)
  std::optional<ProcessTzFile> tz_file;
  std::optional<TzifFacts> localtime_tzif;  // processes/<pid>/localtime.tzif
  std::optional<ZoneRule> zone;  // chosen by finalize from tz.txt / the process's TZif
  std::string zone_origin;
  bool zone_assumed = false;     // the zone is a best guess (TZ names a zone we cannot read)
  bool has_fds = false;
  std::vector<FdEntry> fds;
  std::vector<std::string> notes;
  std::vector<EvidenceRef> evidence;

  const std::string* env(std::string_view name) const {
    for (const auto& [k, v] : environ)
      if (k == name) return &v;
    return nullptr;
  }
};

struct ProcessFacts {
  std::map<int64_t, ProcessInfo> by_pid;
};

}  // namespace triage
