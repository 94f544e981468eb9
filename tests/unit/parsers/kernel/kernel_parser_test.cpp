// Kernel logs: journal JSON, journalctl text, dmesg, dmesg -T, syslog; the Ascend printk
// shape; module-load failures; time bases; one kernel line seen in three sources counts once.
#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <string>

#include "model/host_facts.h"
#include "ingest/finalize.h"
#include "parsers/kernel/kernel_line.h"
#include "parsers/kernel/kernel_parser.h"
#include "parsers/plog/plog_parser.h"

#include "bundle_test_util.h"

using namespace triage;

namespace {

using testing::parse_into;

const std::string kAbnormal =
    "[ascend] [drv_pcie] [devdrv_sync_non_trans_msg_send 1239] <kworker/u385:0:15232:15232> Device is "
    "abnormal. (dev_id=5; msg_type=3; common_type=5)";
// 2026-03-01T12:00:00Z
const int64_t kBtime = days_from_civil(2026, 3, 1) * 86400 + 12 * 3600;
const std::string kBootHex = "0123456789abcdef0123456789abcdef";
const std::string kBootDashed = "01234567-89ab-cdef-0123-456789abcdef";

}  // namespace

TEST_CASE("kernel line: the Ascend printk shape is split into fields", "[kernel_parser]") {
  AscendPrintkView v;
  REQUIRE(parse_ascend_printk(kAbnormal, v));
  CHECK_FALSE(v.error_tag);
  CHECK(v.module == "drv_pcie");
  CHECK(v.function == "devdrv_sync_non_trans_msg_send");
  CHECK(v.line == "1239");
  CHECK(v.comm == "kworker/u385:0");
  CHECK(v.pid == "15232");
  CHECK(v.tid == "15232");
  CHECK(v.message == "Device is abnormal.");
  AscendPrintk f = to_fact(v);
  REQUIRE(f.values.size() == 3);
  CHECK(f.values[0] == std::make_pair(std::string("dev_id"), std::string("5")));
  CHECK(f.values[2] == std::make_pair(std::string("common_type"), std::string("5")));
  CHECK(f.line == 1239);

  REQUIRE(parse_ascend_printk(
      "[ascend] [ERROR] [devmm] [devmm_pin_user_pages_fast 124] <VLLM::Worker_TP:670605,670605> "
      "Get_user_pages_fast fail. (ret=-14; va=0x1)", v));
  CHECK(v.error_tag);
  CHECK(v.module == "devmm");
  CHECK(v.comm == "VLLM::Worker_TP");
  CHECK(v.pid == "670605");
  CHECK(v.tid == "670605");
  CHECK(v.message == "Get_user_pages_fast fail.");
  CHECK(v.values == "ret=-14; va=0x1");

  REQUIRE(parse_ascend_printk(
      "[ascend] [davinci_intf] [drv_davinci_intf_sub_call_release 348] <davinci_recycle:42400> Release "
      "module success. (module_name=\"SVM\"; pid=42394)", v));
  CHECK(v.comm == "davinci_recycle");
  CHECK(v.pid == "42400");
  CHECK(v.tid == "");
  REQUIRE(parse_ascend_printk(
      "[ascend] [devdrv] [devdrv_refresh_aicore_info_work 322] <kworker/u385:0:15232> "
      "devdrv_manager_send_msg unsuccessful. (ret=-19; dev_id=5)", v));
  CHECK(v.comm == "kworker/u385:0");
  CHECK(v.pid == "15232");
  CHECK_FALSE(parse_ascend_printk("[ascend]", v));
}

TEST_CASE("kernel line: module-load failures are recognised", "[kernel_parser]") {
  ModuleLoadFailure f;
  REQUIRE(parse_module_failure("drv_devmm_host: Unknown symbol devdrv_manager_get_devnum (err -2)", f));
  CHECK(f.problem == ModuleLoadProblem::unknown_symbol);
  CHECK(f.module == "drv_devmm_host");
  CHECK(f.symbol == "devdrv_manager_get_devnum");
  CHECK(f.detail == "err -2");
  REQUIRE(parse_module_failure("drv_pcie_hdc_host: disagrees about version of symbol devdrv_register_client", f));
  CHECK(f.problem == ModuleLoadProblem::symbol_version);
  CHECK(f.symbol == "devdrv_register_client");
  REQUIRE(parse_module_failure("drv_pcie_host: version magic '5.15.0-25-generic SMP mod_unload aarch64' "
                               "should be '5.15.0-91-generic SMP mod_unload aarch64'", f));
  CHECK(f.problem == ModuleLoadProblem::version_magic);
  CHECK(f.detail == "have '5.15.0-25-generic SMP mod_unload aarch64' want '5.15.0-91-generic SMP mod_unload aarch64'");
  REQUIRE(parse_module_failure("ascend_queue: module verification failed: signature and/or required key "
                               "missing - tainting kernel", f));
  CHECK(f.problem == ModuleLoadProblem::verification_failed);
  CHECK(f.module == "ascend_queue");
  REQUIRE(parse_module_failure("modprobe: ERROR: could not insert 'drv_vascend': Key was rejected by service", f));
  CHECK(f.problem == ModuleLoadProblem::key_rejected);
  CHECK(f.module == "drv_vascend");
  REQUIRE(parse_module_failure("ts_agent: loading out-of-tree module taints kernel.", f));
  CHECK(f.problem == ModuleLoadProblem::out_of_tree_taint);
  CHECK_FALSE(parse_module_failure("usb 1-1: new high-speed USB device number 2", f));
}

TEST_CASE("kernel line: the text forms", "[kernel_parser]") {
  KernelLine k;
  REQUIRE(parse_kernel_line("[ 2081.843939] [ascend] [devmm] [f 1] <main:42394,42394> x", k) == KernelResult::parsed);
  CHECK(k.shape == KernelLineShape::dmesg_raw);
  CHECK(k.uptime_s == Approx(2081.843939));
  CHECK(k.message == "[ascend] [devmm] [f 1] <main:42394,42394> x");
  REQUIRE(parse_kernel_line("<6>[    5.000001] hello", k) == KernelResult::parsed);
  CHECK(k.syslog_pri == 6);
  REQUIRE(parse_kernel_line("[Sun Mar  1 12:07:36 2026] hello there", k) == KernelResult::parsed);
  CHECK(k.shape == KernelLineShape::dmesg_human);
  CHECK(k.civil.year == 2026);
  CHECK(k.civil.day == 1);
  CHECK(k.civil.hour == 12);
  CHECK(k.message == "hello there");
  REQUIRE(parse_kernel_line("Mar  1 12:07:36 node1 kernel: [  456.343559] hello", k) == KernelResult::parsed);
  CHECK(k.shape == KernelLineShape::syslog_short);
  CHECK(k.year_missing);
  CHECK(k.host == "node1");
  CHECK(k.ident == "kernel");
  CHECK(k.message == "hello");
  CHECK(k.uptime_s == Approx(456.343559));
  REQUIRE(parse_kernel_line("Mar 01 12:07:36.123456 node1 kernel: hello", k) == KernelResult::parsed);
  CHECK(k.shape == KernelLineShape::syslog_precise);
  CHECK(k.civil.micros == 123456);
  REQUIRE(parse_kernel_line("2026-03-01T20:07:36+0800 node1 kernel: hello", k) == KernelResult::parsed);
  CHECK(k.shape == KernelLineShape::syslog_iso);
  CHECK(k.offset_seconds == 8 * 3600);
  REQUIRE(parse_kernel_line("2026-03-01T20:07:36.5+08:00 node1 systemd[1]: Started x.", k) == KernelResult::parsed);
  CHECK(k.ident == "systemd");
  CHECK(k.civil.micros == 500000);
  const std::string marker = "-- Boot " + kBootHex + " --";
  REQUIRE(parse_kernel_line(marker, k) == KernelResult::parsed);
  CHECK(k.shape == KernelLineShape::journal_marker);
  CHECK(k.boot_id == kBootHex);
  REQUIRE(parse_kernel_line("(none) kern.info kernel: [144171.324674][T28699] [kbox] catch oom event on cpu 0.", k) ==
          KernelResult::parsed);
  CHECK(k.priority == "kern.info");
  CHECK(k.message == "[kbox] catch oom event on cpu 0.");
  CHECK(parse_kernel_line("[  452.96", k) == KernelResult::malformed);
  CHECK(parse_kernel_line("Mar  1 12:07:36", k) == KernelResult::not_kernel);
  CHECK(parse_kernel_line("hello", k) == KernelResult::not_kernel);
  CHECK(dashed_boot_id(kBootHex) == kBootDashed);
}

TEST_CASE("journal JSON: strings, byte arrays, null, the cut marker and a partial last line", "[kernel_parser]") {
  std::string rt = std::to_string(kBtime * 1000000 + 456343559);
  std::string bytes;  // "drv_x: Unknown symbol s\xff (err -2)" as a byte array
  for (unsigned char c : std::string("drv_x: Unknown symbol s\xff (err -2)")) {
    if (!bytes.empty()) bytes += ',';
    bytes += std::to_string(c);
  }
  std::string text =
      "{\"__REALTIME_TIMESTAMP\":\"" + rt + "\",\"_BOOT_ID\":\"" + kBootHex +
      "\",\"PRIORITY\":\"5\",\"_TRANSPORT\":\"kernel\",\"_SOURCE_MONOTONIC_TIMESTAMP\":\"456343559\","
      "\"MESSAGE\":\"" + kAbnormal + "\"}\n"
      "{\"__REALTIME_TIMESTAMP\":\"" + rt + "\",\"_BOOT_ID\":\"" + kBootHex + "\",\"MESSAGE\":[" + bytes + "]}\n"
      "{\"__REALTIME_TIMESTAMP\":\"" + rt + "\",\"_BOOT_ID\":\"" + kBootHex + "\",\"MESSAGE\":null}\n"
      "{\"__ascend_collect_cut__\": {\"dropped_bytes\": 123456}}\n"
      "{\"__REALTIME_TIMESTAMP\":\"" + rt + "\",\"MESSAGE\":\"usb 1-1: plain line\"}\n"
      "{not json\n"
      "{\"__REALTIME_TIMESTAMP\":\"" + rt + "\",\"MESS";
  BundleFacts facts;
  auto stats = parse_into(facts, parse_journal_json, "kernel/journal-b0.jsonl", text);
  CHECK(stats.lines == 7);
  CHECK(stats.parsed == 5);
  CHECK(stats.malformed == 2);  // bad JSON, partial last line
  CHECK(stats.variant == "journal-json");
  REQUIRE(facts.logs.journal_cuts.size() == 1);
  CHECK(facts.logs.journal_cuts[0].dropped_bytes == 123456);
  CHECK(facts.logs.journal_cuts[0].evidence.line == 4);
  REQUIRE(facts.logs.kernel_events.size() == 2);
  const KernelEvent& a = facts.logs.kernel_events[0];
  CHECK(a.form == KernelLogForm::journal_json);
  CHECK(a.boot_id == kBootDashed);
  CHECK(a.time.basis == TimeBasis::utc_in_source);
  CHECK(a.time.utc_us == kBtime * 1000000 + 456343559);
  CHECK(a.uptime_s == Approx(456.343559));
  CHECK(a.priority == "5");
  REQUIRE(a.ascend);
  CHECK(a.ascend->module == "drv_pcie");
  REQUIRE(a.hits.size() == 1);
  CHECK(a.hits[0].id == "kernel/ascend-device-abnormal");
  const KernelEvent& b = facts.logs.kernel_events[1];
  REQUIRE(b.module_failure);
  CHECK(b.module_failure->module == "drv_x");
  CHECK(b.module_failure->symbol == "s\xff");
  REQUIRE(facts.logs.kernel_entries.size() == 1);
  CHECK(facts.logs.kernel_entries[0].boot_ids == std::vector<std::string>{kBootHex});
}

TEST_CASE("dmesg times come from btime and are marked approximate", "[kernel_parser]") {
  BundleFacts facts;
  facts.system.btime = kBtime;
  facts.system.boot_id = kBootDashed;
  auto stats = parse_into(facts, parse_dmesg, "kernel/dmesg.txt",
                          "[  456.343559] " + kAbnormal + "\n[  457.000000] usb 1-1: unrelated\n");
  CHECK(stats.parsed == 2);
  CHECK(stats.variant == "dmesg");
  finalize_facts(facts, AnalyzeOptions{});
  REQUIRE(facts.logs.kernel_events.size() == 1);
  const KernelEvent& ev = facts.logs.kernel_events[0];
  CHECK(ev.time.basis == TimeBasis::boot_relative);
  CHECK(ev.approximate);
  CHECK(ev.time.utc_us == kBtime * 1000000 + 456343559);
  REQUIRE(facts.logs.signature_hits.size() == 1);
  CHECK(facts.logs.signature_hits[0].source == "dmesg_raw");
  CHECK(facts.logs.signature_hits[0].time.time.utc_us == ev.time.utc_us);
  std::map<std::string, std::string> cap(facts.logs.signature_hits[0].captures.begin(),
                                         facts.logs.signature_hits[0].captures.end());
  CHECK(cap["dev_id"] == "5");
}

TEST_CASE("syslog without a year: estimated from the collection time and flagged", "[kernel_parser]") {
  BundleFacts facts;
  facts.system.host_zone = ZoneRule::fixed(8 * 3600);
  // collected 2026-01-02 10:00 local (02:00 UTC)
  facts.system.collected_at_us = (days_from_civil(2026, 1, 2) * 86400 + 2 * 3600) * int64_t{1000000};
  parse_into(facts, parse_syslog, "kernel/syslog/messages",
             "Dec 31 23:59:58 node1 kernel: drv_devmm_host: Unknown symbol devmm_x (err -2)\n"
             "Jan  2 09:00:00 node1 kernel: ts_agent: loading out-of-tree module taints kernel.\n"
             "Jan  2 09:00:01 node1 sshd[77]: Accepted publickey for root\n");
  finalize_facts(facts, AnalyzeOptions{});
  REQUIRE(facts.logs.kernel_events.size() == 2);
  const KernelEvent& dec = facts.logs.kernel_events[0];
  CHECK(dec.time.basis == TimeBasis::year_estimated);
  CHECK(format_utc(dec.time.utc_us) == "2025-12-31T15:59:58Z");
  REQUIRE(dec.module_failure);
  CHECK(dec.module_failure->problem == ModuleLoadProblem::unknown_symbol);
  const KernelEvent& jan = facts.logs.kernel_events[1];
  CHECK(format_utc(jan.time.utc_us) == "2026-01-02T01:00:00Z");
  CHECK(jan.module_failure->problem == ModuleLoadProblem::out_of_tree_taint);
}

TEST_CASE("the same kernel line in journal, dmesg and syslog counts once", "[kernel_parser]") {
  BundleFacts facts;
  facts.system.btime = kBtime;
  facts.system.boot_id = kBootDashed;
  facts.system.host_zone = ZoneRule::fixed(8 * 3600);
  facts.system.collected_at_us = (kBtime + 3600) * int64_t{1000000};
  std::string rt = std::to_string(kBtime * 1000000 + 456343559);
  parse_into(facts, parse_dmesg, "kernel/dmesg.txt", "[  456.343559] " + kAbnormal + "\n");
  parse_into(facts, parse_syslog, "kernel/syslog/kern.log",
             "Mar  1 20:07:36 node1 kernel: [  456.343559] " + kAbnormal + "\n");
  parse_into(facts, parse_journal_json, "kernel/journal-b0.jsonl",
             "{\"__REALTIME_TIMESTAMP\":\"" + rt + "\",\"_BOOT_ID\":\"" + kBootHex +
                 "\",\"_SOURCE_MONOTONIC_TIMESTAMP\":\"456343559\",\"MESSAGE\":\"" + kAbnormal + "\"}\n");
  // the same text an hour later is another event
  parse_into(facts, parse_journal_text, "kernel/journal.txt",
             "Mar 01 21:07:36 node1 kernel: " + kAbnormal + "\n");
  finalize_facts(facts, AnalyzeOptions{});
  REQUIRE(facts.logs.kernel_events.size() == 2);
  const KernelEvent& kept = facts.logs.kernel_events[0];
  CHECK(kept.form == KernelLogForm::journal_json);
  CHECK(kept.also_seen.size() == 2);
  CHECK(facts.logs.kernel_duplicates == 2);
  CHECK(facts.logs.kernel_events[1].form == KernelLogForm::journal_text);
  CHECK(facts.logs.kernel_events[1].time.basis == TimeBasis::year_estimated);
  CHECK(facts.logs.signature_hits.size() == 2);
}

TEST_CASE("kernel text: dmesg -T, journalctl boot markers, not-collected text", "[kernel_parser]") {
  BundleFacts facts;
  facts.system.host_zone = ZoneRule::fixed(0);
  auto s1 = parse_into(facts, parse_dmesg_human, "kernel/dmesg-T.txt",
                       "[Sun Mar  1 12:07:36 2026] [fault_manager] event_id: [0x80E01809] occur\n");
  CHECK(s1.variant == "dmesg-T");
  auto s2 = parse_into(facts, parse_journal_text, "kernel/journal.txt",
                       "-- Boot " + kBootHex + " --\n"
                       "2026-03-01T20:07:36+0800 node1 kernel: drv_pcie_host: disagrees about version of symbol x\n");
  CHECK(s2.parsed == 2);
  CHECK(s2.variant == "journal-short-iso");
  finalize_facts(facts, AnalyzeOptions{});
  REQUIRE(facts.logs.kernel_events.size() == 2);
  const auto& fm = facts.logs.kernel_events[0];
  CHECK(fm.fault_manager);
  CHECK(fm.approximate);
  CHECK(fm.time.basis == TimeBasis::local_known_zone);
  const auto& mod = facts.logs.kernel_events[1];
  CHECK(mod.boot_id == kBootDashed);
  CHECK(mod.time.basis == TimeBasis::utc_in_source);
  CHECK(format_utc(mod.time.utc_us) == "2026-03-01T12:07:36Z");
  BundleFacts denied;
  auto s3 = parse_into(denied, parse_dmesg, "kernel/dmesg.txt",
                       "dmesg: read kernel buffer failed: Operation not permitted\n");
  CHECK(s3.not_collected == "Operation not permitted");
}

TEST_CASE("device log exports: black-box kernel text and device plogs", "[kernel_parser]") {
  BundleFacts facts;
  facts.system.btime = kBtime;  // the host's boot: never applied to the device's uptime
  auto s1 = parse_into(facts, parse_device_export,
                       "ascend/device-logs/hisi_logs/device-2/20240420162417-271713000/bbox/kbox.txt",
                       "[2454.830694] {6}[Hardware Error] Error 0, type: recoverable\n"
                       "[2454.830701] {6}[Hardware Error]  error_type: 3, multi-bit ECC\n");
  CHECK(s1.parsed == 2);
  CHECK(s1.variant == "device-kernel");
  auto s2 = parse_into(facts, parse_device_export,
                       "ascend/device-logs/slog/dev-os-0/debug/device-os/device-os_20240122045443091.log",
                       "[ERROR] KERNEL(5044,sklogd):2024-07-29-10:33:22.646.284 [klogd.c:247][257382.266124] "
                       "[ascend] [ERROR] [devmm] [devmm_svm_device_fault 468] <kworker/u16:2:14887,14887> Vm "
                       "fault failed. (hostpid=2131021; devid=0; vfid=0; ret=64)\n");
  CHECK(s2.parsed == 1);
  finalize_facts(facts, AnalyzeOptions{});
  REQUIRE(facts.logs.kernel_events.size() == 1);
  CHECK(facts.logs.kernel_events[0].form == KernelLogForm::device_kernel);
  CHECK_FALSE(facts.logs.kernel_events[0].time.known());
  CHECK(facts.logs.kernel_events[0].uptime_s == Approx(2454.830701));
  REQUIRE(facts.logs.plog_entries.size() == 1);
  CHECK(facts.logs.plog_entries[0].kind == SourceKind::device_log);
  CHECK(facts.logs.plog_entries[0].device_id == 0);
  std::set<std::string> ids;
  for (const auto& h : facts.logs.signature_hits) ids.insert(h.id);
  CHECK(ids == std::set<std::string>{"kernel/hardware-memory-error", "device-memory/vm-fault"});
}

TEST_CASE("kernel parsers count hostile input and never crash", "[kernel_parser]") {
  std::mt19937 rng(7);
  const std::string base[] = {
      "[  456.343559] " + kAbnormal,
      "Mar  1 20:07:36 node1 kernel: [  456.343559] drv_x: Unknown symbol y (err -2)",
      "[Sun Mar  1 12:07:36 2026] [fault_manager] event_id: [0x80E01809] occur",
      "{\"__REALTIME_TIMESTAMP\":\"1\",\"_BOOT_ID\":\"" + kBootHex + "\",\"MESSAGE\":[1,2,300]}",
      "2026-03-01T20:07:36+0800 node1 kernel: x"};
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    std::string s = base[static_cast<size_t>(i) % 5];
    int edits = static_cast<int>(rng() % 5);
    for (int e = 0; e < edits; ++e) s[rng() % s.size()] = static_cast<char>(rng() % 256);
    KernelLine k;
    (void)parse_kernel_line(s, k);
    text += s;
    text += '\n';
  }
  text += std::string(3 << 20, '[') + "\n";  // a 3 MB line
  uint64_t newlines = static_cast<uint64_t>(std::count(text.begin(), text.end(), '\n'));
  for (ParseFn fn : {parse_dmesg, parse_syslog, parse_journal_text, parse_dmesg_human, parse_journal_json}) {
    BundleFacts facts;
    auto stats = parse_into(facts, fn, "kernel/x", text);
    CHECK(stats.lines == newlines);
    CHECK(stats.parsed + stats.unrecognised + stats.malformed == stats.lines);
    CHECK(stats.malformed >= 1);  // at least the 3 MB line
    finalize_facts(facts, AnalyzeOptions{});
  }
}
