// The msnpureport export (issue 12): the dispatcher, the RAS event / APEI tap, and the
// device-exception findings from a fake export tree (tests/data/device-logs-bundle/).
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "ingest/classify.h"
#include "correlator/correlate.h"
#include "correlator/analyses/device_exception.h"
#include "model/host_facts.h"
#include "parsers/plog/device_export_parser.h"
#include "parsers/plog/plog_parser.h"

#include "analysis_test_support.h"
#include "bundle_test_util.h"

using namespace triage;

namespace {

ParseStats parse_export(BundleFacts& facts, const std::string& path, const std::string& text) {
  return testing::parse_into(facts, parse_device_export, path, text);
}

// real-log-excerpts.md 3.10 is a grep over kbox.txt: "<path>:<line>[uptime] ...". The file
// itself holds what follows the line number.
std::string kbox_from_excerpt() {
  auto blocks = testing::reference_blocks("3.10");
  REQUIRE(!blocks.empty());
  std::string out;
  size_t pos = 0;
  const std::string& b = blocks[0];
  while (pos < b.size()) {
    size_t nl = b.find('\n', pos);
    std::string line = b.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? b.size() : nl + 1;
    size_t bracket = line.find("txt:");
    if (bracket == std::string::npos) continue;
    size_t at = line.find('[', bracket);
    out += line.substr(at) + "\n";
  }
  return out;
}

std::string val(const Finding& f, std::string_view key) {
  const std::string* v = f.find_value(key);
  return v ? *v : "<absent>";
}

const std::string kExport = "ascend/device-logs/2024-04-20-16-30-05/";

}  // namespace

TEST_CASE("export file kinds come from the msnpureport layout", "[device_export]") {
  CHECK(device_export_file_kind(kExport + "slog/dev-os-0/run/event/event_20250110175352846.log") == "event-log");
  CHECK(device_export_file_kind(kExport + "slog/dev-os-0/debug/device-os/device-os_1.log") == "device-os-log");
  CHECK(device_export_file_kind(kExport + "hisi_logs/device-2/history.log") == "bbox-history");
  CHECK(device_export_file_kind(kExport + "hisi_logs/device-2/20240420162417-271713000/bbox/kbox.txt") == "bbox-kbox");
  CHECK(device_export_file_kind(kExport + "hisi_logs/device-2/20240420162417-271713000/log/kernel.log") == "bbox-kernel");
  CHECK(device_export_file_kind(kExport + "message/dev-os-0/messages.0") == "device-syslog");
  CHECK(device_export_file_kind(kExport + "stackcore/dev-os-0/core-aicpu_sd-1234") == "core-dump");
  CHECK(device_export_file_kind(kExport + "slog/dev-os-0/debug/device-0/device-0_1.log") == "device-log");
}

TEST_CASE("msnpureport trees are device-log exports wherever they sit", "[device_export]") {
  auto kind_of = [](std::string_view p) {
    auto m = match_layout(p);
    return m ? m->kind : SourceKind::unknown;
  };
  CHECK(kind_of(kExport + "hisi_logs/device-2/history.log") == SourceKind::device_log_export);
  CHECK(kind_of("logs/host/var/log/npu/report/2024-04-20-16-30-05/slog/dev-os-0/debug/device-os/device-os_1.log") ==
        SourceKind::device_log_export);
  CHECK(kind_of("logs/host/var/log/npu/report/x/hisi_logs/device-0/20240420162417-271713000/bbox/kbox.txt") ==
        SourceKind::device_log_export);
  CHECK(kind_of("extra/tmp/export/2024-04-20/slog/dev-os-1/run/event/event_1.log") == SourceKind::device_log_export);
  // Host-side logs keep their kinds.
  CHECK(kind_of("logs/host/root/ascend/log/debug/device-0/device-6495_20251222194004973.log") == SourceKind::device_log);
  CHECK(kind_of("logs/host/root/ascend/log/debug/plog/plog-1_2.log") == SourceKind::plog);
}

TEST_CASE("kbox.txt (real APEI block): a memory error with address and location", "[device_export]") {
  BundleFacts facts;
  std::string kbox = kbox_from_excerpt();
  auto st = parse_export(facts, kExport + "hisi_logs/device-2/20240420162417-271713000/bbox/kbox.txt", kbox);
  CHECK(st.lines == 8);
  CHECK(st.parsed + st.unrecognised + st.malformed == st.lines);
  CHECK(st.variant == "device-kernel");
  REQUIRE(facts.devices.memory_errors.size() == 1);
  const DeviceMemoryError& m = facts.devices.memory_errors[0];
  CHECK(m.device == 2);
  CHECK(m.error_type == "3, multi-bit ECC");
  CHECK(m.physical_address == "0x0000101efe36d3c0");
  CHECK(m.location.starts_with("node: 2 card: 259 module: 51 rank: 1 bank: 10"));
  CHECK(m.evidence.line == 7);
  CHECK(m.time_text.find("2454.830701") != std::string::npos);
  REQUIRE(facts.devices.export_files.size() == 1);
  CHECK(facts.devices.export_files[0].file_kind == "bbox-kbox");
}

TEST_CASE("event ids in event logs and device-os logs, lines numbered as LineReader does", "[device_export]") {
  BundleFacts facts;
  // CRLF line ends, a blank line and an unterminated last line: numbers and offsets still match.
  std::string text =
      "[EVENT] TSCH(-1,null):2025-01-10-17:53:52.846.001 1 (dieid:0,cpuid:0) event_report.c:88 report_event: start\r\n"
      "\n"
      "[EVENT] TSCH(-1,null):2025-01-10-17:53:52.846.002 1 (dieid:0,cpuid:0) event_report.c:88 report_event: "
      "event_id=0x80C98001, device_id=0";
  auto st = parse_export(facts, kExport + "slog/dev-os-0/run/event/event_20250110175352846.log", text);
  CHECK(st.lines == 3);
  REQUIRE(facts.devices.ras_events.size() == 1);
  const DeviceRasEvent& e = facts.devices.ras_events[0];
  CHECK(e.event_id == "0x80c98001");
  CHECK(e.device == 0);
  CHECK(e.file_kind == "event-log");
  CHECK(e.evidence.line == 3);
  CHECK(e.evidence.offset == text.rfind("[EVENT]"));
  CHECK(e.time_text == "2025-01-10-17:53:52.846.002");
  REQUIRE(facts.logs.plog_entries.size() == 1);
  CHECK(facts.logs.plog_entries[0].kind == SourceKind::device_log);

  BundleFacts fm;
  parse_export(fm, kExport + "slog/dev-os-2/run/device-os/device-os_20240420162417271.log",
               "[EVENT] KERNEL(4128,sklogd):2024-04-20-16:24:17.259.649 [klogd.c:253][2454.830650] "
               "[fault_manager] event_id: [0x80E01809] occur\n"
               "[INFO] KERNEL(4128,sklogd):2024-04-20-16:24:17.259.650 [klogd.c:253][2454.830651] event_id: none\n");
  REQUIRE(fm.devices.ras_events.size() == 1);
  CHECK(fm.devices.ras_events[0].event_id == "0x80e01809");
  CHECK(fm.devices.ras_events[0].device == 2);

  // The `Event id=0x...` form (ascend-fd's device-event rules, knowledge/mappings/ascend-fd.tsv)
  // is the same event; a bare "Event id" without a hex id is not.
  BundleFacts cap;
  parse_export(cap, kExport + "slog/dev-os-5/run/device-os/device-os_20240420162417271.log",
               "[EVENT] KERNEL(4128,sklogd):2024-04-20-16:24:17.259.649 [klogd.c:253][2454.830650] "
               "[fault_manager] Event id=0x80818C00 occur\n"
               "[INFO] KERNEL(4128,sklogd):2024-04-20-16:24:17.259.650 [klogd.c:253][2454.830651] Event id=none\n");
  REQUIRE(cap.devices.ras_events.size() == 1);
  CHECK(cap.devices.ras_events[0].event_id == "0x80818c00");
  CHECK(cap.devices.ras_events[0].device == 5);
}

TEST_CASE("black-box history.log: the system exception code is a device event (hiascend doc line)", "[device_export]") {
  BundleFacts facts;
  parse_export(facts, "hisi_logs/device-id/history.log",
               "[2020-02-27-19:18:46.142527] system exception code [0x68020002]: ModuleName [DRIVER], "
               "ExceptionReason [DEVICE_HBL_EXCEPTION], TimeStamp [20200227191842-300803183].\n"
               // Near misses: no hex after the bracket, an unclosed code, too few digits.
               "[2020-02-27-19:18:47.000000] system exception code [none]: ModuleName [DRIVER]\n"
               "[2020-02-27-19:18:48.000000] system exception code [0x6802000\n"
               "[2020-02-27-19:18:49.000000] system exception code [0x68]: x\n");
  REQUIRE(facts.devices.ras_events.size() == 1);
  const DeviceRasEvent& e = facts.devices.ras_events[0];
  CHECK(e.event_id == "0x68020002");
  CHECK(e.file_kind == "bbox-history");
  CHECK(e.time_text == "2020-02-27-19:18:46.142527");
  CHECK(e.evidence.line == 1);
}

TEST_CASE("a core dump is inventoried and not parsed, garbage is counted", "[device_export]") {
  BundleFacts facts;
  std::string core("\x7f" "ELF\x02\x01\x01\x00\x00\x00\nxx\x00\n", 16);
  auto st = parse_export(facts, kExport + "stackcore/dev-os-0/core-aicpu_sd-1234", core);
  CHECK(st.variant == "core-dump (not parsed)");
  CHECK(facts.devices.export_files.at(0).file_kind == "core-dump");
  BundleFacts g;
  auto s2 = parse_export(g, kExport + "slog/dev-os-1/run/event/event_1.log",
                         std::string("not a log\nevent_id=0xZZ\n\x00\x01\n", 27));
  CHECK(s2.lines == 3);
  CHECK(s2.parsed + s2.unrecognised + s2.malformed == s2.lines);
  CHECK(g.devices.ras_events.empty());
}

TEST_CASE("device-logs bundle: HBM ECC and AI Core timeout become device-exception findings",
          "[device_export][device_exception]") {
  LoadResult r = testing::load({std::string(TEST_DATA_DIR) + "/data/device-logs-bundle"});
  REQUIRE(r.evidence.bundles.size() == 1);
  const BundleFacts& b = r.evidence.bundles[0];
  CHECK(b.devices.export_files.size() == 5);
  CHECK(b.devices.ras_events.size() == 2);
  CHECK(b.devices.memory_errors.size() == 1);
  Report report = correlate(r.evidence, AnalyzeOptions{});
  std::vector<const Finding*> hbm, aicore;
  for (const auto& f : report.findings) {
    if (f.id == "device-exception/hbm-ecc") hbm.push_back(&f);
    if (f.id == "device-exception/aicore-timeout") aicore.push_back(&f);
  }
  // One finding per kind and device: the fault-manager line, its signature hit and the kbox
  // block of device 2 are one HBM finding, never counted twice.
  REQUIRE(hbm.size() == 1);
  const Finding& h = *hbm[0];
  CHECK(h.severity == Severity::critical);
  CHECK(val(h, "device") == "2");
  CHECK(val(h, "event_ids") == "0x80e01809");
  CHECK(val(h, "count") == "2");
  CHECK(val(h, "physical_address") == "0x0000101efe36d3c0");
  CHECK(h.observed.find("Multi-bit ECC errors during the HBM patrol") != std::string::npos);
  CHECK_FALSE(h.does_not_prove.empty());
  CHECK(h.evidence.size() == 2);
  REQUIRE(aicore.size() == 1);
  const Finding& a = *aicore[0];
  CHECK(val(a, "device") == "0");
  CHECK(val(a, "event_ids") == "0x80c98001");
  CHECK(val(a, "source") == "device-log export");
  REQUIRE_FALSE(a.evidence.empty());
  CHECK(a.evidence[0].entry.find("event_20250110175352846.log") != std::string::npos);
  CHECK(a.does_not_prove.find("device's own clock") != std::string::npos);
}

TEST_CASE("device events on in-memory facts: unknown ids, corrected APEI errors", "[device_exception]") {
  BundleFacts b;
  DeviceRasEvent e;
  e.event_id = "0x80aa0001";
  e.device = 3;
  e.file_kind = "event-log";
  e.evidence = make_evidence("event_1.log", 4, 0, "event_id=0x80AA0001");
  b.devices.ras_events.push_back(e);
  DeviceMemoryError m;
  m.device = 1;
  m.error_type = "2, single-bit ECC";
  m.evidence = make_evidence("kbox.txt", 9, 0, "error_type: 2, single-bit ECC");
  b.devices.memory_errors.push_back(m);
  auto out = testing::run_analysis(analyze_device_exception, b);
  const Finding* unknown = testing::find_finding(out, "device-exception/device-event");
  REQUIRE(unknown);
  CHECK(unknown->severity == Severity::warning);
  CHECK(val(*unknown, "device") == "3");
  const Finding* ecc = testing::find_finding(out, "device-exception/hbm-ecc");
  REQUIRE(ecc);
  CHECK(ecc->severity == Severity::warning);  // corrected, no multi-bit, no RAS event
  CHECK(val(*ecc, "device") == "1");
  // The same event in the debug/ and run/ copies (same device time) is one event.
  BundleFacts twice;
  for (std::string copy : {"debug", "run"}) {
    DeviceRasEvent c;
    c.event_id = "0x80e01809";
    c.device = 0;
    c.time_text = "2024-04-20-16:24:17.259.649";
    c.evidence = make_evidence("slog/dev-os-0/" + copy + "/device-os/device-os_1.log", 1, 0, "event_id");
    twice.devices.ras_events.push_back(c);
  }
  auto t = testing::run_analysis(analyze_device_exception, twice);
  REQUIRE(t.size() == 1);
  CHECK(val(t[0], "count") == "1");
  // Nothing from the export: no device finding.
  BundleFacts none;
  CHECK(testing::run_analysis(analyze_device_exception, none).empty());
}

TEST_CASE("507899 keeps the driver return code behind it (real 1.6 plog)", "[device_exception]") {
  auto blocks = testing::reference_blocks("1.6");
  REQUIRE(!blocks.empty());
  BundleFacts facts;
  testing::parse_into(facts, parse_plog, "logs/host/root/ascend/log/debug/plog/plog-618_20250306010906978.log",
                      blocks[0]);
  auto out = testing::run_analysis(analyze_device_exception, facts);
  const Finding* f = testing::find_finding(out, "device-exception/driver-internal");
  REQUIRE(f);
  CHECK(val(*f, "drv_ret_codes") == "87");
  CHECK(val(*f, "drv_calls").find("drvGetDevNum") != std::string::npos);
  // 87 is in ascend_hal_error.h (hicann/driver): the finding names it.
  CHECK(f->observed.find("drvRetCode 87 = DRV_ERROR_RESOURCE_OCCUPIED") != std::string::npos);
  bool drv_line = false;
  for (const auto& ev : f->evidence) drv_line = drv_line || ev.excerpt.find("drvRetCode=87") != std::string::npos;
  CHECK(drv_line);
}
