// The Ascend installers' logs (ascend/seclog/): install log lines in their three shapes,
// operation log lines, broken lines, tool error text, and the host-zone conversion.
// Lines are verbatim from samples/incident-910b-before-reboot/ascend/seclog/ (written to the
// formats of ascend-facts.md: hicann/driver log_common.sh) and real-log-excerpts.md 3.9.
#include <catch2/catch.hpp>

#include "model/facts_events.h"
#include "ingest/finalize.h"
#include "parsers/plog/seclog_parser.h"
#include "model_test_support.h"

using namespace triage;
using triage::test::run_parser;

namespace {

constexpr std::string_view kInstallLog =
    "[Driver] [2026-08-29 16:02:31] [uid=0] [INFO]Start time: 2026-08-29 16:02:31\n"
    "[Driver] [2026-08-29 16:02:32] [uid=0] [INFO]uninstall command: /usr/local/Ascend/driver/script/uninstall.sh\n"
    "[Driver] [2026-08-29 16:02:34] [uid=0] [WARNING]rmmod drv_dvpp_cmdlist failed, the module is in use.\n"
    "[Driver] [2026-08-29 16:02:50] [uid=0] [INFO]Driver package uninstalled successfully! Reboot needed for uninstallation to take effect!\n"
    "[Driver] [2026-08-29 16:21:09] [uid=0] [INFO]install command: ./Ascend-hdk-910b-npu-driver_26.0.rc1_linux-aarch64.run --full\n"
    "[Driver] [2026-08-29 16:21:11] [uid=0] [INFO]base version is none.\n"
    "[Driver] [2026-08-29 16:22:11] [ERROR]Driver_ko_install failed, details in : /var/log/ascend_seclog/ascend_install.log\n"
    "[Driver] [2026-08-29 16:22:44] [uid=0] [INFO]Driver package installed successfully! Reboot needed for installation/upgrade to take effect!\n"
    "[driver] [2026-06-12 10:14:02] dkms add -m davinci_ascend -v 1.0\n"
    "[Toolkit] [2026-09-03 13:48:17] [INFO]: Start to install Ascend-cann-toolkit_9.1.0_linux-aarch64.run, install path /usr/local/Ascend\n"
    "[Toolkit] [2026-09-03 13:54:45] [INFO]: Ascend-cann-toolkit install success, version 9.1.0, path /usr/local/Ascend/cann-9.1.0\n"
    "[Driver] [2026-09-03 14:09:54] [uid=0] [INFO]End time: 2026-09-03 14:09:54\n";

constexpr std::string_view kOperationLog =
    "Install MINOR root 2026-06-12 10:05:11 127.0.0.1 Ascend-hdk-910b-npu-driver_25.5.1_linux-aarch64.run success install_type=full; cmdlist=--full --dkms.\n"
    "Uninstall MAJOR root 2026-08-29 16:02:31 127.0.0.1 uninstall.sh success install_type=full; cmdlist=--uninstall.\n"
    "Upgrade MINOR root 2026-08-29 16:31:02 127.0.0.1 Ascend-hdk-910b-npu-firmware_9.0.0.0.205.run success install_type=full; cmdlist=--full.\n";

const InstallEvent* find_event(const BundleFacts& f, std::string_view message_part) {
  for (const auto& e : f.events.install)
    if (e.message.find(message_part) != std::string::npos) return &e;
  return nullptr;
}

}  // namespace

TEST_CASE("install log: commands, results, warnings and steps are kept with their times",
          "[seclog][install]") {
  BundleFacts f;
  ParseStats s = run_parser(parse_ascend_seclog, "ascend/seclog/ascend_install.log", kInstallLog, f);
  CHECK(s.lines == 12);
  CHECK(s.parsed == 12);
  CHECK(s.malformed == 0);
  CHECK(s.variant == "install-log");
  // Start/End time lines are counted, not kept: the command line of the same run says more.
  REQUIRE(f.events.install.size() == 10);

  const InstallEvent* un = find_event(f, "uninstall command:");
  REQUIRE(un);
  CHECK(un->component == "Driver");
  CHECK(un->line_kind == InstallLineKind::command);
  CHECK(un->action == InstallAction::uninstall);
  CHECK(un->package == "uninstall.sh");
  CHECK(un->user == "uid=0");
  CHECK(un->time.valid);
  CHECK(un->time.civil.hour == 16);
  CHECK(un->time.civil.minute == 2);
  CHECK(un->evidence.line == 2);

  const InstallEvent* rmmod = find_event(f, "rmmod drv_dvpp_cmdlist");
  REQUIRE(rmmod);
  CHECK(rmmod->severity == Severity::warning);
  CHECK(rmmod->level == "WARNING");
  CHECK(rmmod->result == InstallResult::unknown);  // a failed rmmod is a step, not the run's result

  const InstallEvent* unok = find_event(f, "uninstalled successfully");
  REQUIRE(unok);
  CHECK(unok->action == InstallAction::uninstall);
  CHECK(unok->result == InstallResult::success);

  const InstallEvent* cmd = find_event(f, "install command: ./Ascend-hdk");
  REQUIRE(cmd);
  CHECK(cmd->action == InstallAction::install);
  CHECK(cmd->package == "Ascend-hdk-910b-npu-driver_26.0.rc1_linux-aarch64.run");
  CHECK(cmd->version == "26.0.rc1");

  const InstallEvent* failed = find_event(f, "Driver_ko_install failed");
  REQUIRE(failed);
  CHECK(failed->result == InstallResult::failed);
  CHECK(failed->severity == Severity::error);
  CHECK(failed->user.empty());  // this line has no [uid=] field
  CHECK(failed->version == "26.0.rc1");  // from the run's command line

  const InstallEvent* ok = find_event(f, "Driver package installed successfully");
  REQUIRE(ok);
  CHECK(ok->result == InstallResult::success);
  CHECK(ok->package == "Ascend-hdk-910b-npu-driver_26.0.rc1_linux-aarch64.run");

  const InstallEvent* dkms = find_event(f, "dkms add");
  REQUIRE(dkms);
  CHECK(dkms->component == "driver");
  CHECK(dkms->level == "INFO");  // the lower-case [driver] lines carry no level

  const InstallEvent* start = find_event(f, "Start to install");
  REQUIRE(start);
  CHECK(start->line_kind == InstallLineKind::start);
  CHECK(start->package == "Ascend-cann-toolkit_9.1.0_linux-aarch64.run");
  CHECK(start->version == "9.1.0");

  const InstallEvent* tk = find_event(f, "Ascend-cann-toolkit install success");
  REQUIRE(tk);
  CHECK(tk->message.rfind("Ascend-cann-toolkit install success", 0) == 0);  // "[INFO]: " stripped
  CHECK(tk->version == "9.1.0");
  CHECK(tk->package == "Ascend-cann-toolkit");

  CHECK(find_event(f, "base version is none") != nullptr);
  CHECK(find_event(f, "End time") == nullptr);
}

TEST_CASE("operation log: one event per run with action, package, version and outcome",
          "[seclog][install]") {
  BundleFacts f;
  ParseStats s = run_parser(parse_ascend_seclog, "ascend/seclog/operation.log", kOperationLog, f);
  CHECK(s.parsed == 3);
  CHECK(s.malformed == 0);
  CHECK(s.variant == "operation-log");
  REQUIRE(f.events.install.size() == 3);
  const InstallEvent& a = f.events.install[0];
  CHECK(a.log == "operation-log");
  CHECK(a.line_kind == InstallLineKind::operation);
  CHECK(a.action == InstallAction::install);
  CHECK(a.level == "MINOR");
  CHECK(a.user == "root");
  CHECK(a.package == "Ascend-hdk-910b-npu-driver_25.5.1_linux-aarch64.run");
  CHECK(a.version == "25.5.1");
  CHECK(a.result == InstallResult::success);
  CHECK(a.install_type == "full");
  CHECK(a.cmdlist == "--full --dkms");
  CHECK(a.time.civil.year == 2026);
  CHECK(a.time.civil.hour == 10);
  CHECK(f.events.install[1].action == InstallAction::uninstall);
  CHECK(f.events.install[1].version.empty());
  CHECK(f.events.install[2].action == InstallAction::upgrade);
  CHECK(f.events.install[2].version == "9.0.0.0.205");
}

TEST_CASE("seclog: broken and foreign lines are counted, never dropped silently",
          "[seclog][install]") {
  BundleFacts f;
  std::string text =
      "[Driver] [2026-13-45 99:00:00] [uid=0] [INFO]install command: ./x.run\n"  // bad date
      "[Driver] [2026-08-29 16:0\n"                                              // cut line
      "Install MINOR root 2026-06-12 127.0.0.1 x.run success\n"                  // no clock
      "Install MINOR root 2026-06-12 10:05:11 127.0.0.1\n"                       // no package
      "some free text from ascend_run_servers.log\n"
      "[Driver] [2026-08-29 16:22:11] [uid=0] [ERROR]driver ko are in use, cannot replace them now.\n";
  text += std::string("\0x\n", 3);  // a NUL byte
  text += "[Driver] [2026-08-29 16:22:12] [uid=0] [INFO]unterminated last line";
  ParseStats s = run_parser(parse_ascend_seclog, "ascend/seclog/ascend_install.log", text, f);
  CHECK(s.lines == 8);
  CHECK(s.malformed == 5);
  CHECK(s.unrecognised == 1);
  CHECK(s.parsed == 2);
  CHECK(s.lines == s.parsed + s.unrecognised + s.malformed);
  CHECK(s.samples_of_malformed.size() == 5);
  REQUIRE(f.events.install.size() == 1);  // the ERROR line
  CHECK(f.events.install[0].severity == Severity::error);
}

TEST_CASE("seclog: a tool's error text is 'not collected', not an empty history",
          "[seclog][install]") {
  BundleFacts f;
  ParseStats s = run_parser(parse_ascend_seclog, "ascend/seclog/operation.log",
                            "cat: /var/log/ascend_seclog/operation.log: Permission denied\n", f);
  CHECK_FALSE(s.not_collected.empty());
  CHECK(f.events.install.empty());
}

TEST_CASE("seclog: times are the host's local time, converted with the host zone",
          "[seclog][install]") {
  BundleFacts f;
  run_parser(parse_ascend_seclog, "ascend/seclog/operation.log", kOperationLog, f);
  TimeFile tf;
  tf.tz_posix = "CST-8";
  tf.tz_posix_zone = ZoneRule::from_posix("CST-8");
  f.system.time_file = tf;
  f.system.host_zone = tf.tz_posix_zone;
  f.system.host_zone_origin = "system/time.txt tz_posix";
  finalize_event_facts(f, AnalyzeOptions{});
  REQUIRE(f.events.install[0].time.time.known());
  CHECK(format_utc(f.events.install[0].time.time.utc_us) == "2026-06-12T02:05:11Z");
  CHECK(f.events.install[0].time.time.basis == TimeBasis::local_known_zone);
  CHECK(f.events.install[0].time.time.original == "2026-06-12 10:05:11");
}

TEST_CASE("seclog: the version of a run file name", "[seclog][install]") {
  CHECK(version_from_run_file("Ascend-hdk-910b-npu-driver_25.5.1_linux-aarch64.run") == "25.5.1");
  CHECK(version_from_run_file("Ascend-hdk-910b-npu-firmware_7.8.0.6.201.run") == "7.8.0.6.201");
  CHECK(version_from_run_file("Ascend-cann-toolkit_8.5.0_linux-aarch64.run") == "8.5.0");
  CHECK(version_from_run_file("Ascend-cann-910b-ops_9.1.0_linux-aarch64.run") == "9.1.0");
  CHECK(version_from_run_file("uninstall.sh") == "");
  CHECK(version_from_run_file("") == "");
}
