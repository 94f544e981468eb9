#pragma once
// Installer history from /var/log/ascend_seclog/ (bundle: ascend/seclog/<name>):
// `ascend_install.log` (one line per installer step, local time) and `operation.log`
// (one line per install / upgrade / uninstall run). Filled by parsers/plog/seclog_parser.cpp;
// times are converted with the host zone by finalize_event_facts(). The timeline shows
// them on the install-log and operation-log lanes. Also the journal's list of boots
// (kernel/boots.txt, parsers/kernel/boots_parser.cpp) for the timeline's boot marks.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/evidence.h"
#include "model/facts_logs.h"
#include "model/severity.h"

namespace triage {

enum class InstallAction : uint8_t { install, upgrade, uninstall, rollback, step };
std::string_view to_string(InstallAction a);

// What a line says about the outcome; `unknown` for a start, a command or a plain step.
enum class InstallResult : uint8_t { unknown, success, failed };
std::string_view to_string(InstallResult r);

// What kind of installer line it was.
enum class InstallLineKind : uint8_t {
  start,    // "Start time: ...", "Start to install X.run, install path P"
  command,  // "install command: ./X.run --full", "uninstall command: ..."
  result,   // "... installed successfully!", "... install success, version V", "... failed"
  step,     // a warning / error line, or a dkms / depmod step worth showing
  operation,  // a line of operation.log (one per run, with its outcome)
};
std::string_view to_string(InstallLineKind k);

struct InstallEvent {
  std::string log;        // "install-log" or "operation-log"
  std::string component;  // the tag as written ("Driver", "driver", "Firmware", "Toolkit", "Ops")
                          // or, for operation.log, empty
  InstallLineKind line_kind = InstallLineKind::step;
  InstallAction action = InstallAction::step;
  InstallResult result = InstallResult::unknown;
  std::string package;    // run file name or package name ("Ascend-hdk-910b-npu-driver_25.5.1_...run")
  std::string version;    // from the line or the run file name ("25.5.1", "8.5.0"); "" unknown
  std::string level;      // INFO / WARNING / ERROR as written; operation.log: MINOR, MAJOR, ...
  Severity severity = Severity::info;  // ERROR and failed = error, WARNING = warning
  std::string user;       // operation.log user, install-log uid ("uid=0")
  std::string install_type, cmdlist;   // operation.log fields
  std::string message;    // the text after the prefix, at most EvidenceRef::kMaxExcerpt bytes
  LocalTime time;         // local wall clock of the host; converted in finalize
  EvidenceRef evidence;
};

// A line of kernel/boots.txt (`journalctl --list-boots --utc`): a boot the journal knows.
// Its times are the journal's wall clock (a skewed clock shows here too).
struct BootRecord {
  int64_t index = 0;                    // 0 = the boot the collector ran in, -1 the one before
  std::string boot_id;                  // with dashes, as in /proc/sys/kernel/random/boot_id
  std::optional<int64_t> first_utc_us;  // first journal entry of that boot
  std::optional<int64_t> last_utc_us;   // last journal entry
  EvidenceRef evidence;
};

struct EventFacts {
  std::vector<BootRecord> boots;      // in file order (oldest first)
  std::vector<InstallEvent> install;  // in file order until finalize sorts them by time
  uint64_t dropped = 0;               // events beyond kMaxInstallEvents (counted, not kept)
  bool finalized = false;
  static constexpr size_t kMaxInstallEvents = 20000;
};

}  // namespace triage
