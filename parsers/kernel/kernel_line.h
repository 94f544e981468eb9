#pragma once
// Kernel log lines in text form (dmesg, dmesg -T, journalctl short/short-iso/short-precise,
// syslog files) split into views without allocating, and the kernel message itself read
// for what matters (Ascend printk shape, [fault_manager], module-load failures).
#include <cstdint>
#include <string_view>

#include "model/facts_logs.h"
#include "model/time.h"

namespace triage {

enum class KernelLineShape : uint8_t {
  none,
  dmesg_raw,        // [ 2081.843939] msg        (also <6>[...] and [..][T123] caller ids)
  dmesg_human,      // [Tue Mar  1 12:00:00 2026] msg
  bracket_local,    // [2025-04-16-03:08:13.818489] msg   (MindCluster host_kernel.log)
  syslog_short,     // Mar  1 12:00:00 host ident[pid]: msg   (journalctl short, RFC 3164)
  syslog_precise,   // Mar 01 12:00:00.123456 host ident: msg (journalctl short-precise)
  syslog_iso,       // 2026-03-01T12:00:00[.ffffff]+0800 host ident: msg (short-iso, RFC 3339)
  syslog_no_time,   // (none) kern.info kernel: msg   (device busybox syslog)
  journal_marker,   // -- Boot 0123abcd... -- / -- Logs begin at ... -- / -- No entries --
  no_time,          // [ascend] [devmm] [ERROR] ...   (a driver message pasted without its time)
};
std::string_view to_string(KernelLineShape s);

enum class KernelResult : uint8_t { parsed, not_kernel, malformed };

struct KernelLine {
  std::string_view prefix;     // grep prefix "path:N:" when present
  std::string_view time_text;
  std::string_view host, ident, priority;  // syslog forms ("kernel", "kern.info")
  std::string_view ident_pid;  // syslog forms: the pid of `ident[pid]:`, digits only
  bool month_localized = false;  // syslog_short: a month name of another locale (`8月`)
  std::string_view message;    // printk text, timestamps removed
  std::string_view boot_id;    // journal_marker "-- Boot <id> --" (32 hex, no dashes)
  KernelLineShape shape = KernelLineShape::none;
  CivilTime civil;             // local wall-clock (year may be missing)
  bool civil_valid = false;
  bool year_missing = false;
  bool has_offset = false;     // ISO forms carry their UTC offset
  int offset_seconds = 0;
  double uptime_s = 0;         // printk seconds since boot
  bool has_uptime = false;
  int syslog_pri = -1;         // <N> prefix of dmesg -r
  const char* malformed_reason = "";
};

KernelResult parse_kernel_line(std::string_view text, KernelLine& out);

// Zero-allocation view of the Ascend printk shape inside a kernel message.
struct AscendPrintkView {
  bool error_tag = false;
  std::string_view module, function, line, comm, pid, tid, message, values;
};
bool parse_ascend_printk(std::string_view msg, AscendPrintkView& out);
AscendPrintk to_fact(const AscendPrintkView& v);

// A module-load failure in a kernel message; false when the message is none.
bool parse_module_failure(std::string_view msg, ModuleLoadFailure& out);
// Cheap pre-test for parse_module_failure (no allocation).
bool may_be_module_failure(std::string_view msg);

// `[fault_manager] ...` lines of the device/host fault manager.
inline bool is_fault_manager(std::string_view msg) {
  return msg.substr(0, 16) == "[fault_manager] " || msg.substr(0, 15) == "[fault_manager]";
}

// Converts a 32-hex journal boot id to the dashed form of /proc/sys/kernel/random/boot_id.
std::string dashed_boot_id(std::string_view id);

}  // namespace triage
