// Readers of issue 19's remaining real pastes, on verbatim lines of tests/data/real/: journalctl
// short format in a zh_CN locale with daemon idents (HAMi #2712), a device messages file
// without a year (MindCluster FaultDiag test data), TSCH EVENT and HCCL DEBUG plog lines (CANN
// docs, vllm-ascend #10911). Near misses beside each.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "bundle_test_util.h"
#include "correlator/summaries/facts_listing.h"
#include "ingest/classify.h"
#include "knowledge/month_names.h"
#include "parsers/kernel/kernel_line.h"
#include "parsers/kernel/service_lines.h"
#include "parsers/plog/plog_parser.h"

using namespace triage;
using namespace triage::testing;

namespace {

// tests/data/real/hami-2712-journal-kubelet-ascend-docker-runtime/journal.txt, lines 1 and 3
const std::string kKubeletLine1 =
    "8月 18 16:33:56 kylin10-6018 kubelet[176281]: E0818 16:33:56.754985  176281 client.go:90] "
    "\"ListAndWatch ended unexpectedly for device plugin\" err=\"EOF\" resource=\"huawei.com/Ascend910B4-1\"";
const std::string kKubeletLine3 =
    "8月 17 16:52:02 kylin10-6018 kubelet[176281]: E0817 16:52:02.414082  176281 pod_workers.go:1324] "
    "\"Error syncing pod, skipping\" err=\"failed to \\\"StartContainer\\\" for \\\"vllm\\\" with "
    "RunContainerError: \\\"failed to create containerd task\\\"\" pod=\"default/test4-780cd89b-c75965f9b-knvsg\"";

// tests/data/real/mind-cluster-faultdiag-testdata-messages-heartbeat-lost/messages.txt, line 1
const std::string kHeartbeat =
    "Aug  1 08:38:31 localhost kernel: [ 1197.584409] [ascend] [ERROR] [drv_soft_fault] "
    "[heart_beat_judge 318] <kworker/5:1H:39365> Heartbeat lost! (device=1; old_count=1104; "
    "new_count=1104; lost_count=4; total_lost_count=4; total_10s_count=0; total_15s_count 0).";

bool has(const std::vector<FactRow>& rows, const std::string& key, const std::string& value) {
  return std::any_of(rows.begin(), rows.end(),
                     [&](const FactRow& r) { return r.key == key && r.value == value; });
}

ParseStats parse_plog_text(BundleFacts& facts, const std::string& path, const std::string& text) {
  return parse_into(facts, parse_plog, path, text);
}

}  // namespace

TEST_CASE("journalctl short in a zh_CN locale reads with its month, host, ident and pid", "[kernel][journal][locale]") {
  KernelLine k;
  REQUIRE(parse_kernel_line(kKubeletLine1, k) == KernelResult::parsed);
  CHECK(k.shape == KernelLineShape::syslog_short);
  CHECK(k.month_localized);
  CHECK(k.time_text == "8月 18 16:33:56");
  CHECK(k.civil.month == 8);
  CHECK(k.civil.day == 18);
  CHECK(k.civil.hour == 16);
  CHECK(k.year_missing);
  CHECK(k.host == "kylin10-6018");
  CHECK(k.ident == "kubelet");
  CHECK(k.ident_pid == "176281");
  CHECK(k.message.starts_with("E0818 16:33:56.754985  176281 client.go:90]"));

  // glibc pads one-digit months in zh_TW, ja_JP and ko_KR (` 8月`, ` 8월`): same reading.
  REQUIRE(parse_kernel_line(" 8월 17 16:52:02 node1 containerd[912]: x", k) == KernelResult::parsed);
  CHECK(k.time_text == "8월 17 16:52:02");
  CHECK(k.civil.month == 8);
  CHECK(k.ident_pid == "912");
  REQUIRE(parse_kernel_line("12月  1 00:00:01 node1 kubelet[1]: y", k) == KernelResult::parsed);
  CHECK(k.civil.month == 12);
  CHECK(k.civil.day == 1);

  // The C names still read as before, not localized; an ident without a pid has none.
  REQUIRE(parse_kernel_line(kHeartbeat, k) == KernelResult::parsed);
  CHECK_FALSE(k.month_localized);
  CHECK(k.time_text == "Aug  1 08:38:31");
  CHECK(k.ident == "kernel");
  CHECK(k.ident_pid.empty());

  // Near misses: a date with 日, a month 13, no month word, an ISO date, a month name that
  // is no abbreviation, a pid that is not a number.
  CHECK(parse_kernel_line("8月 17日 16:52:02 kylin10-6018 kubelet[176281]: x", k) == KernelResult::not_kernel);
  CHECK(parse_kernel_line("13月 17 16:52:02 kylin10-6018 kubelet[176281]: x", k) == KernelResult::not_kernel);
  CHECK(parse_kernel_line("8 17 16:52:02 kylin10-6018 kubelet[176281]: x", k) == KernelResult::not_kernel);
  CHECK(parse_kernel_line("2026-08-17 16:52:02 kylin10-6018 kubelet[176281]: x", k) == KernelResult::not_kernel);
  CHECK(parse_kernel_line("八月 17 16:52:02 kylin10-6018 kubelet[176281]: x", k) == KernelResult::not_kernel);
  CHECK(parse_kernel_line("  8月 17 16:52:02 kylin10-6018 kubelet[176281]: x", k) == KernelResult::not_kernel);
  REQUIRE(parse_kernel_line("8月 17 16:52:02 kylin10-6018 kubelet[abc]: x", k) == KernelResult::parsed);
  CHECK(k.ident == "kubelet");
  CHECK(k.ident_pid.empty());
}

TEST_CASE("a localized month makes a file journal text; C months stay syslog", "[classify][sniff][locale]") {
  std::string journal = read_file(std::string(TEST_DATA_DIR) +
                                  "/data/real/hami-2712-journal-kubelet-ascend-docker-runtime/journal.txt");
  SniffResult r = sniff_content(journal, true);
  CHECK(r.kind == SourceKind::journal_text);
  CHECK(r.reason.find("localized month") != std::string::npos);
  CHECK(sniff_content(kHeartbeat + "\n", true).kind == SourceKind::syslog);
  // Near miss: Chinese prose with a month is no journal line.
  CHECK(sniff_content("8月 17 日发布的版本修复了这个问题\n", true).kind == SourceKind::unknown);
}

TEST_CASE("a daemon's error line is kept with its ident, pid and time; other lines are not", "[kernel][journal][service]") {
  KernelLine k;
  REQUIRE(parse_kernel_line(kKubeletLine3, k) == KernelResult::parsed);
  CHECK(is_service_error(k.message));
  // containerd (logrus) and a `[ERROR]` daemon line; near misses: glog info, a level word
  // inside another word, a message that only mentions an error.
  CHECK(is_service_error("time=\"2026-08-17T16:52:02.414082+08:00\" level=error msg=\"failed\""));
  CHECK(is_service_error("[ERROR] ascend-docker-runtime: exit status 1"));
  CHECK_FALSE(is_service_error("I0817 16:52:02.414082  176281 pod_workers.go:1324] \"Syncing pod\""));
  CHECK_FALSE(is_service_error("time=\"x\" level=errors msg=\"y\""));
  CHECK_FALSE(is_service_error("E0817 16:52:02 pod_workers.go:1324] no micros"));
  CHECK_FALSE(is_service_error("\"Error syncing pod, skipping\""));

  TempDir dir;
  write_file(dir / "journal.txt", kKubeletLine1 + "\n" + kKubeletLine3 + "\n" +
                                      "8月 17 16:52:03 kylin10-6018 kubelet[176281]: I0817 16:52:03.000001  176281 x.go:1] \"ok\"\n");
  LoadResult loaded = load({dir / "journal.txt"});
  REQUIRE(loaded.evidence.bundles.size() == 1);
  const BundleFacts& b = loaded.evidence.bundles[0];
  REQUIRE(b.logs.service_errors.size() == 2);
  const ServiceErrorLine& s = b.logs.service_errors[1];
  CHECK(s.ident == "kubelet");
  CHECK(s.pid == 176281);
  CHECK(s.time_text == "8月 17 16:52:02");
  CHECK(s.evidence.line == 2);
  CHECK(s.message.starts_with("pod_workers.go:1324] \"Error syncing pod, skipping\""));  // glog header off
  auto rows = list_facts(b);
  CHECK(has(rows, "pid", "176281"));
  CHECK(has(rows, "time", "8月 17 16:52:02"));
  CHECK_FALSE(has(rows, "time", "8月 17 16:52:03"));  // the info line is no fact
}

TEST_CASE("kernel events give their time as printed and the Ascend printk's device", "[kernel][facts]") {
  TempDir dir;
  write_file(dir / "messages.txt", kHeartbeat + "\n");
  LoadResult loaded = load({dir / "messages.txt"});
  REQUIRE(loaded.evidence.bundles.size() == 1);
  auto rows = list_facts(loaded.evidence.bundles[0]);
  CHECK(has(rows, "time", "Aug  1 08:38:31"));
  CHECK(has(rows, "device", "1"));
  CHECK_FALSE(has(rows, "device", "1104"));  // old_count is no device
}

TEST_CASE("plog entries keep the pids of their lines, debug lines and device EVENT pid= included", "[plog_parser][pids]") {
  BundleFacts facts;
  // vllm-ascend #10911: HCCL DEBUG lines (plog.txt line 1)
  parse_plog_text(facts, "plog.txt",
                  "[DEBUG] HCCL(14376,):2026-06-24-06:50:22.597.958 [heartbeat.cc:1574] [18857]cnt: "
                  "255570, isNeedDetect: 1, issueCnt:3, interTimes:783360\n");
  // CANN docs: TSCH EVENT lines of a device log grep (grep.txt lines 1 and 3), the pid in the message
  parse_plog_text(facts, "grep.txt",
                  "device-0_20231201062601524.log:23102:[EVENT] TSCH(-1,null):2023-12-02-14:29:25.780.720 "
                  "17641 (dieid:0,cpuid:0) ringbuffer.c:177 delete_ringbuffer: pid=3299758, vf_id=0\n"
                  "device-0_20231201062601524.log:23104:[EVENT] TSCH(-1,null):2023-12-02-14:29:25.780.774 "
                  "17643 (dieid:0,cpuid:0) ringbuffer.c:163 create_ringbuffer: last_Id=21, vf_id=0, pid=3299758\n");
  // Near misses: `ppid=` and `tgid_pid=` are no pid=, and the device's -1 is no process.
  parse_plog_text(facts, "near.txt",
                  "[EVENT] TSCH(-1,null):2023-12-02-14:29:25.780.720 17641 (dieid:0,cpuid:0) x.c:1 f: ppid=77, tgid_pid=78\n");
  REQUIRE(facts.logs.plog_entries.size() == 3);
  CHECK(facts.logs.plog_entries[0].pids == std::vector<int64_t>{14376});
  CHECK(facts.logs.plog_entries[1].pids == std::vector<int64_t>{3299758});
  CHECK(facts.logs.plog_entries[2].pids.empty());
  CHECK(facts.logs.plog_entries[1].first.time.original == "2023-12-02-14:29:25.780.720");
  CHECK(facts.logs.plog_entries[1].last.time.original == "2023-12-02-14:29:25.780.774");
  auto rows = list_facts(facts);
  CHECK(has(rows, "pid", "14376"));
  CHECK(has(rows, "pid", "3299758"));
  CHECK(has(rows, "time", "2023-12-02-14:29:25.780.720"));
  CHECK_FALSE(has(rows, "pid", "77"));
  CHECK_FALSE(has(rows, "pid", "78"));
}

TEST_CASE("month-names.tsv: the built-in table and what its parser rejects", "[knowledge][locale]") {
  const MonthNames& m = builtin_month_names();
  size_t len = 0;
  CHECK(m.at("Aug  1", len) == 8);
  CHECK(len == 3);
  CHECK(m.at("10月 1", len) == 10);
  CHECK(len == std::string_view("10月").size());
  CHECK(m.at("1月 1", len) == 1);
  CHECK(m.at(" 1월 1", len) == 1);
  CHECK(len == 1 + std::string_view("1월").size());
  CHECK(m.at(" Aug 1", len) == 0);  // a blank pads localized names only
  CHECK(m.c_name("Mar") == 3);
  CHECK(m.c_name("3月") == 0);

  std::vector<std::string> errors;
  const std::string header = "locales\tjan\tfeb\tmar\tapr\tmay\tjun\tjul\taug\tsep\toct\tnov\tdec\n";
  parse_month_names(header + "xx\t1\t2\t3\t4\t5\t6\t7\t8\t9\t10\t11\t12\n", "m.tsv", errors);
  CHECK(std::any_of(errors.begin(), errors.end(), [](const std::string& e) { return e.find("no C row") != std::string::npos; }));
  errors.clear();
  parse_month_names(header + "C\tJan\tFeb\tMar\tApr\tMay\tJun\tJul\tAug\tSep\tOct\tNov\tDec\n"
                             "xx\tz\tJa\tc\td\te\tf\tg\th\ti\tj\tk\tl\n", "m.tsv", errors);
  CHECK(std::any_of(errors.begin(), errors.end(), [](const std::string& e) { return e.find("overlaps") != std::string::npos; }));
  errors.clear();
  parse_month_names(header + "C\tJan\tFeb\tMar\tApr\tMay\tJun\tJul\tAug\tSep\tOct\tNov\tDec\n", "m.tsv", errors);
  CHECK(errors.empty());
}

TEST_CASE("a single file keeps the device-log tree of its path, so its device is known", "[bundle][device_log]") {
  TempDir dir;
  // tests/data/real/mind-cluster-faultdiag-testdata-hisi-logs-device-1-lockup: both files verbatim
  const std::string plog = dir / "case/device-1/device-1_20241204162140159.log";
  write_file(plog, "[EVENT] IMP(-2,IMP): 2024-12-04-08:21:54.994.714 70 (device_id:1 die_id:0) [IMP] present 1, "
                   "mac_link 1, pcs_link 1, rf_lf 1, pcs_err_cnt 5, pcs_64_66b 4681\n");
  const std::string kbox = dir / "case/hisi_logs/device-1/20241204162140-590391000/log/kernel.log";
  write_file(kbox, "[1310493.343613] NMI watchdog: Watchdog detected core LOCKUP on cpu1\n");
  // Near miss: a directory named like a device tree but not one (`device-x`), and none at all.
  const std::string other = dir / "case/device-x/plog-1_20241204162140159.log";
  write_file(other, "[EVENT] IMP(-2,IMP): 2024-12-04-08:21:54.994.714 70 [IMP] x\n");

  LoadResult a = load({plog});
  REQUIRE(a.evidence.bundles.size() == 1);
  REQUIRE(a.evidence.bundles[0].logs.plog_entries.size() == 1);
  const PlogEntrySummary& p = a.evidence.bundles[0].logs.plog_entries[0];
  CHECK(p.device_id == 1);
  auto rows = list_facts(a.evidence.bundles[0]);
  CHECK(has(rows, "device", "1"));
  CHECK(has(rows, "time", "2024-12-04-08:21:54.994.714"));

  LoadResult b = load({kbox});
  REQUIRE(b.evidence.bundles.size() == 1);
  REQUIRE(b.evidence.bundles[0].devices.export_files.size() == 1);
  CHECK(b.evidence.bundles[0].devices.export_files[0].device == 1);

  LoadResult c = load({other});
  REQUIRE(c.evidence.bundles.size() == 1);
  REQUIRE(c.evidence.bundles[0].logs.plog_entries.size() == 1);
  CHECK_FALSE(c.evidence.bundles[0].logs.plog_entries[0].device_id);
}

TEST_CASE("a version file's `Version=` line is a version fact, as `version=` is", "[facts][version]") {
  TempDir dir;
  // tests/data/real/mind-cluster-faultdiag-testdata-env-check/npu_info_before.txt, lines 20-23
  write_file(dir / "version.info",
             "Version=7.1.0.11.220\nfirmware_version=1.0\npackage_version=23.0.7\n"
             "compatible_version_drv=[23.0.rc3,23.0.rc3.],[23.0.0,23.0.0.]\n");
  LoadResult loaded = load({dir / "version.info"});
  REQUIRE(loaded.evidence.bundles.size() == 1);
  REQUIRE(loaded.evidence.bundles[0].libraries.firmware_version);
  auto rows = list_facts(loaded.evidence.bundles[0]);
  CHECK(has(rows, "version", "7.1.0.11.220"));
  CHECK(has(rows, "version", "23.0.7"));
  CHECK_FALSE(has(rows, "version", "Version=7.1.0.11.220"));
}
