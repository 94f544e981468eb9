#pragma once
// One plog / device-log line split into fields without allocating: every field is a view
// into the caller's text. The shapes are listed in docs/log-formats.md (Format notes A of
// the reference excerpts); the header is
//   [LEVEL] MODULE(PID,NAME):YYYY-MM-DD-HH:MM:SS.mmm.uuu [file:line]TID Func:message
// and what follows the file marker differs by module (thread id placement).
#include <cstdint>
#include <string_view>

#include "model/facts_logs.h"
#include "model/time.h"

namespace triage {

// Where the thread id and function sit after the header.
enum class PlogShape : uint8_t {
  none,
  tid_glued,     // [file:line]TID Func:msg            RUNTIME, GE, ASCENDCL, APP
  tid_spaced,    // [file:line] TID Func:msg           a few RUNTIME/IDEDD samples
  hccl,          // [file:line] [TID][Func]msg         HCCL (also [file:line][TID][Func])
  tagged,        // [file:line][tag][tag]msg           2022 HCCL group tags, no thread id
  hccp,          // [file:line]tid:TID,func : msg      HCCP
  func_tid,      // [file:line][Func][tid:TID] msg     TDT, IDEDD, AICPU, CCECPU
  profiling,     // [file:line] >>> (tid:TID) msg      PROFILING, ATRACE ((tid:N) glued too)
  drv,           // [file:line]?[ascend][curpid:PID,TID][drv][mod][func LINE]msg   DRV
  drv_tagged,    // [file:line][dmp] [func LINE] msg   DRV dmp/devmng/tsdrv
  tdt_trailing,  // [log.cpp:148]msg,[file:line:Func]TID   2021 TDT
  plain,         // [file:line]msg                     no thread id
  tsch,          // SEQ (dieid:N,cpuid:N) file.c:LINE func: msg    TSCH firmware, (-1,null)
  klogd,         // [klogd.c:253][UPTIME] printk text  KERNEL(...,sklogd)
  awatchdog,     // [LEVEL][pid:N][file:line](tid:N) msg   (no module, no time)
  no_time,       // [LEVEL] MODULE(PID)message          old runtime, no timestamp
};
std::string_view to_string(PlogShape s);

// Text in front of the header.
enum class PlogPrefix : uint8_t {
  none,
  whitespace,  // leading blanks (copied from a console)
  grep_n,      // path:N:  (grep -n, grep -Hn)
  grep_h,      // path:    (grep -H)
  embedded,    // anything else before the header (another program's stdout)
};
std::string_view to_string(PlogPrefix p);

enum class PlogResult : uint8_t {
  parsed,
  not_plog,   // no plog header: another program's output, prose, an empty line
  malformed,  // a plog header that breaks off or holds a bad field (time, pid, marker)
};

struct PlogLine {
  std::string_view prefix;        // text before the header ("" when none)
  std::string_view level;         // "ERROR"
  std::string_view module;        // "RUNTIME" ("" for awatchdog)
  std::string_view pid;           // "3813", "-1"
  std::string_view process_name;  // "python3", "", "None", "null" (leading blanks removed)
  std::string_view time_text;     // "2025-01-10-17:53:52.817.403"
  std::string_view file;          // "device_error_proc.cc", a relative path, or ""
  std::string_view line;          // "1409" (DRV without a file marker: the function's line)
  std::string_view tid;           // "3813" or ""
  std::string_view function;      // "ProcessStarsCoreErrorInfo" or ""
  std::string_view message;       // the rest, leading blanks removed
  std::string_view tags;          // DRV "[drv][devmm]", TSCH "(dieid:0,cpuid:0)", func_tid tags
  std::string_view sequence;      // TSCH sequence number, klogd uptime "2572550.901383"
  std::string_view origin_file;   // the file a grep prefix names ("" when none)
  uint64_t origin_line = 0;       // the line number a grep -n prefix names (0 when none)

  PlogLevel level_id = PlogLevel::other;
  PlogShape shape = PlogShape::none;
  PlogPrefix prefix_style = PlogPrefix::none;
  int64_t pid_value = 0;
  int64_t tid_value = -1;         // -1 when there is none
  uint32_t line_value = 0;
  CivilTime time;
  bool has_time = false;
  char time_separator = '-';      // '-' or ' ' between date and time
  const char* malformed_reason = "";  // static text when the result is malformed
};

// Parses one line, looking for the header at the start, after blanks, after a grep prefix,
// and (last) anywhere in the first 512 bytes.
PlogResult parse_plog_line(std::string_view text, PlogLine& out);

// Parses the header found at `text` exactly (no prefix search).
PlogResult parse_plog_at(std::string_view text, PlogLine& out);

// What signatures run on: the line after its time stamp (file marker, thread id, function,
// tags and message), so that a fragment naming the function or the `[Func]` tags of an
// HCCL line matches as it does for ascend-fd; the message when the line has no time stamp.
std::string_view plog_signature_text(const PlogLine& p);

// Per-file state: once a line parses, the file's prefix style and time separator are
// locked and tried first; a line in another shape still parses (counted as off-variant).
class PlogDialect {
 public:
  PlogResult parse(std::string_view text, PlogLine& out);
  bool locked() const { return locked_; }
  PlogPrefix prefix() const { return prefix_; }
  char time_separator() const { return time_sep_; }
  uint64_t off_variant_lines() const { return off_variant_; }

 private:
  bool locked_ = false;
  PlogPrefix prefix_ = PlogPrefix::none;
  char time_sep_ = '-';
  uint64_t off_variant_ = 0;
};

// Parses "YYYY-MM-DD-HH:MM:SS.mmm.uuu" (or a blank for the dash) at the start of `s`;
// returns the length consumed, 0 when it is not such a time.
size_t parse_plog_time(std::string_view s, CivilTime& out, char& separator);

PlogLevel plog_level_from(std::string_view word);

}  // namespace triage
