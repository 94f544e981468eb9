// unexplained-errors and log-signature on in-memory facts built from verbatim corpus lines.
#include <catch2/catch.hpp>

#include "correlator/analyses/log_signature.h"
#include "analysis_test_support.h"
#include "correlator/summaries/report_facts.h"
#include "correlator/passes/unexplained_errors.h"

using namespace triage;

namespace {

// tests/data/real/vllm-ascend-9447-hccp-ra-socket-batch-close/plog.txt, lines 2 and 5.
constexpr std::string_view kHccp2 =
    "[ERROR] HCCP(106335,):2026-05-21-21:41:12.783.479 [ra_hdc_socket.c:122]tid:106335,RaHdcSocketBatchClose : "
    "[batch_close][ra_hdc_socket]ra hdc message process failed, ret(-19) phyId(0).";
constexpr std::string_view kHccp5 =
    "[ERROR] HCCP(106335,):2026-05-21-21:41:12.783.604 [ra_hdc_socket.c:122]tid:106335,RaHdcSocketBatchClose : "
    "[batch_close][ra_hdc_socket]ra hdc message process failed, ret(-19) phyId(0).";

PlogLevelLine row(std::string_view text, uint64_t line, uint64_t count = 1) {
  PlogLevelLine r;
  r.level = PlogLevel::error;
  r.pid = 106335;
  r.count = count;
  r.evidence = make_evidence("plog.txt", line, 0, text);
  return r;
}

BundleFacts with_rows(std::vector<PlogLevelLine> rows) {
  BundleFacts b;
  PlogEntrySummary p;
  p.entry = "plog.txt";
  p.level_lines = std::move(rows);
  b.logs.plog_entries.push_back(std::move(p));
  return b;
}

std::vector<Finding> run(const BundleFacts& b, std::vector<Finding> others = {}) {
  EvidenceSet set;
  set.bundles.push_back(b);
  analyze_unexplained_errors(testing::context_for(set), others);
  std::vector<Finding> out;
  for (auto& f : others)
    if (f.id == "unexplained-errors") out.push_back(std::move(f));
  return out;
}

}  // namespace

TEST_CASE("unexplained-errors: message templates mask numbers and hex", "[unexplained]") {
  CHECK(message_template("ra hdc message process failed, ret(-19) phyId(0).") ==
        "ra hdc message process failed, ret(-#) phyId(#)");
  CHECK(message_template("retCode=0x26, InnerCode=0x7150026") == "retCode=#, InnerCode=#");
  CHECK(message_template("Stream synchronize timeout, device_id=11") == "Stream synchronize timeout, device_id=#");
  CHECK(message_template(std::string(400, 'a')).size() == 160);
}

TEST_CASE("unexplained-errors: plog [ERROR] rows nobody cites form one group", "[unexplained]") {
  auto out = run(with_rows({row(kHccp2, 2, 3)}));
  REQUIRE(out.size() == 1);
  const Finding& f = out[0];
  CHECK(f.severity == Severity::warning);
  CHECK(*f.find_value("lines") == "3");
  CHECK(*f.find_value("groups") == "1");
  const std::string& g = *f.find_value("group.0");
  CHECK(g.find("plog HCCP: tid:#,RaHdcSocketBatchClose : [batch_close][ra_hdc_socket]ra hdc message process failed, ret(-#) phyId(#) x3") == 0);
  CHECK(g.find("pid 106335") != std::string::npos);
  REQUIRE(f.evidence.size() == 1);
  CHECK(f.evidence[0].line == 2);
}

TEST_CASE("unexplained-errors: a cited line explains its group, an uncited one does not", "[unexplained]") {
  BundleFacts b = with_rows({row(kHccp2, 2), row(kHccp5, 5)});
  Finding other;
  other.id = "some-finding";
  other.evidence.push_back(make_evidence("plog.txt", 5, 0, kHccp5));
  CHECK(run(b, {other}).empty());  // line 5 cited: line 2 is a repeat of the same message
  other.evidence.clear();
  other.explains.push_back(EvidenceRef{"plog.txt", 2, 0, {}});
  CHECK(run(b, {other}).empty());  // accounted for without citing
  other.explains[0].line = 3;      // the finding accounts for another line: flips
  CHECK(run(b, {other}).size() == 1);
}

TEST_CASE("unexplained-errors: a benign signature's line is never an error", "[unexplained]") {
  BundleFacts b;
  SignatureHit h;
  h.id = "startup/capability-probe";  // outcome benign in knowledge/signatures/plog.json
  h.severity = "info";
  h.evidence = make_evidence("plog.txt", 7, 0,
                             "[ERROR] RUNTIME(1234,python3):2026-03-01-12:00:00.000.001 [x.cc:1]1 F:not supported");
  b.logs.signature_hits.push_back(h);
  CHECK(run(b).empty());
  b.logs.signature_hits[0].id = "no/such-signature";  // the same line without a benign signature
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].evidence[0].line == 7);
}

TEST_CASE("unexplained-errors: a CANN error report keeps its pid and device facts", "[unexplained]") {
  // tests/data/real/ascend-pytorch-166-hccl-group-sdma-507049-shared-npu/output.txt (header).
  BundleFacts b;
  ErrorReportBlock r;
  r.code = "EE9999";
  r.pid = 93858;
  r.message = "The error from device(chipId:0, dieId:0), serial number is 16. there is a fftsplus sdma error, "
              "sdma channel is 4";
  r.evidence = make_evidence("output.txt", 3, 0, "EE9999: Inner Error!");
  r.details.push_back("Task execute failed, device_id=5, stream_id=6, task_id=13408, flip_num=0");
  b.python.error_reports.push_back(r);
  auto out = run(b);
  REQUIRE(out.size() == 1);
  const std::string& g = *out[0].find_value("group.0");
  // The catalogue's words for the code follow it (issue 36: a known code is named).
  CHECK(g.find("job CANN error report EE9999 (Runtime inner error):") == 0);
  CHECK(g.find("pid 93858") != std::string::npos);
  CHECK(g.find("chip=0, die=0, device_id=5, stream_id=6, task_id=13408") != std::string::npos);
  CHECK(g.find("runtime_result") == std::string::npos);
  CHECK(out[0].evidence.size() == 1);
  // With its timed header and the runtime's result: both are shown.
  b.python.error_reports[0].evidence_header =
      make_evidence("output.txt", 4, 0, "EE9999: [PID: 93858] 2025-09-04-09:50:11.954.378 The error from device(chipId:0, dieId:0)");
  b.python.error_reports[0].runtime_result = 507049;
  out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].find_value("group.0")->find("runtime_result=507049") != std::string::npos);
  REQUIRE(out[0].evidence.size() == 2);
  CHECK(out[0].evidence[1].line == 4);
}

TEST_CASE("unexplained-errors: groups are capped and the overflow is counted", "[unexplained]") {
  std::vector<PlogLevelLine> rows;
  for (int i = 0; i < 300; ++i) {
    std::string text = "[ERROR] HCCP(1,):2026-05-21-21:41:12.783.479 [a.c:1]1 F:failure kind " +
                       std::string(1, static_cast<char>('a' + i % 26)) + std::string(1, static_cast<char>('a' + i / 26));
    rows.push_back(row(text, static_cast<uint64_t>(i + 1)));
  }
  auto out = run(with_rows(std::move(rows)));
  REQUIRE(out.size() == 1);
  CHECK(*out[0].find_value("groups") == "256");
  CHECK(*out[0].find_value("ungrouped_lines") == "44");
  CHECK(*out[0].find_value("lines") == "300");
  CHECK(out[0].observed.find("44 more line(s) were not grouped") != std::string::npos);
}

TEST_CASE("report facts: timeouts, chip, operator and kernel names as printed", "[unexplained]") {
  ReportFacts f;
  add_report_facts("hccl fftsplus task timeout occurred during task execution, stream_id:4, sq_id:4, task_id:5, "
                   "stuck notify num:7, timeout:1836.", f);
  CHECK(report_facts_text(f) == "stream_id=4, task_id=5, timeout=1836");
  ReportFacts g;
  add_report_facts("Op execute failed. origin_op_name [MoeDistributeDispatchV2], op_name [MoeDistributeDispatchV2], "
                   "error_info: task_id 1, stream_id 45, tid 833, device_id 0, retcode 0x7bc83", g);
  CHECK(report_facts_text(g) == "device_id=0, stream_id=45, task_id=1, op_name=MoeDistributeDispatchV2, retcode=0x7bc83");
  ReportFacts h;
  add_report_facts("wait timeout:30min(default)", h);
  add_report_facts("timeout=1866s", h);  // the first value of a key wins
  CHECK(report_facts_text(h) == "timeout=30min(default)");
}

TEST_CASE("log-signature: an own signature's hits become one finding with its text", "[unexplained]") {
  BundleFacts b;
  SignatureHit h;
  h.id = "hccl/port-in-use";  // outcome own
  h.severity = "error";
  h.pid = 60570;
  h.evidence = make_evidence("plog.txt", 1, 0, "listen fail");
  b.logs.signature_hits.push_back(h);
  EvidenceSet set;
  set.bundles.push_back(b);
  std::vector<Finding> out;
  analyze_log_signature(testing::context_for(set), out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "log-signature");
  CHECK(out[0].severity == Severity::error);
  CHECK(*out[0].find_value("signature") == "hccl/port-in-use");
  CHECK(out[0].title.find("(pid 60570)") != std::string::npos);
  b.logs.signature_hits[0].id = "device-exception/aicore-error";  // read by device-exception
  set.bundles[0] = b;
  out.clear();
  analyze_log_signature(testing::context_for(set), out);
  CHECK(out.empty());
}

TEST_CASE("unexplained-errors: a line of the same failure is shown on the finding that cites it", "[unexplained]") {
  // tests/data/real/vllm-ascend-9447-hccp-ra-socket-batch-close/plog.txt, line 1: the same
  // process in the same second as line 2, another message.
  constexpr std::string_view kHccl1 =
      "[ERROR] HCCL(106335,):2026-05-21-21:41:12.783.356 [adapter_hccp.cc:1240] [106335]cur idx[0] disuseLinger[0]";
  auto dated = [](PlogLevelLine r) {
    r.first.valid = r.last.valid = true;
    r.first.civil = r.last.civil = CivilTime{2026, 5, 21, 21, 41, 12, 783000};
    return r;
  };
  BundleFacts b = with_rows({dated(row(kHccl1, 1)), dated(row(kHccp2, 2))});
  Finding other;
  other.id = "some-finding";
  other.evidence.push_back(make_evidence("plog.txt", 2, 0, kHccp2));
  EvidenceSet set;
  set.bundles.push_back(b);
  std::vector<Finding> out = {other};
  analyze_unexplained_errors(testing::context_for(set), out);
  REQUIRE(out.size() == 1);  // line 1 is explained: no unexplained-errors
  REQUIRE(out[0].same_failure.size() == 1);
  CHECK(out[0].same_failure[0].line == 1);
  CHECK(out[0].evidence.size() == 1);  // shown, not cited
  // Another second: not the same failure, so unexplained, and nothing is shown.
  b.logs.plog_entries[0].level_lines[0].first.civil.second = 50;
  b.logs.plog_entries[0].level_lines[0].last.civil.second = 50;
  set.bundles[0] = b;
  out = {other};
  analyze_unexplained_errors(testing::context_for(set), out);
  REQUIRE(out.size() == 2);
  CHECK(out[0].same_failure.empty());
  CHECK(out[1].id == "unexplained-errors");
}

TEST_CASE("unexplained-errors: a MindSpore CRITICAL or EXCEPTION record is an error, a WARNING one is not",
          "[unexplained]") {
  // tests/fixtures/reference/real-log-excerpts.md: MindSpore logs its fatal failures at CRITICAL.
  const std::string critical =
      "[CRITICAL] DEVICE(17381,ffff890145d0,python):2022-12-01-03:02:29.011.280 "
      "[mindspore/ccsrc/runtime/device/kernel_runtime.cc:124] LockRuntime] The pointer[stream] is null.";
  auto with_record = [](const std::string& text) {
    BundleFacts b;
    JobEvent e;
    e.kind = JobEventKind::framework_log;
    e.component = "DEVICE";
    e.evidence = make_evidence("output.txt", 3, 0, text);
    b.python.job_events.push_back(e);
    return b;
  };
  auto out = run(with_record(critical));
  REQUIRE(out.size() == 1);
  CHECK(out[0].evidence[0].line == 3);
  std::string exception = critical;
  exception.replace(0, 10, "[EXCEPTION]");
  CHECK(run(with_record(exception)).size() == 1);
  std::string warning = critical;
  warning.replace(0, 10, "[WARNING]");
  CHECK(run(with_record(warning)).empty());
}

TEST_CASE("unexplained-errors: a traceback cut before its exception line is an error line", "[unexplained]") {
  auto traceback = [](bool complete, size_t chain) {
    PythonTraceback t;
    t.header_seen = true;
    t.complete = complete;
    t.truncated = !complete;
    t.chain = chain;
    PyFrame f;
    f.file = "/srv/app/tools/check.py";
    f.line = 317;
    f.function = "get_info";
    t.frames.push_back(f);
    t.evidence_start = make_evidence("console.txt", 2, 20, "Traceback (most recent call last):");
    if (complete) {
      t.exception_type = "KeyError";
      t.message = "'compiler'";
      t.evidence_exception = make_evidence("console.txt", 6, 200, "KeyError: 'compiler'");
    }
    return t;
  };
  BundleFacts b;
  b.python.tracebacks.push_back(traceback(false, 0));
  auto out = run(b);
  REQUIRE(out.size() == 1);
  const std::string& g = *out[0].find_value("group.0");
  CHECK(g.find("traceback cut before its exception line") != std::string::npos);
  CHECK(g.find("check.py") != std::string::npos);
  CHECK(out[0].evidence.at(0).line == 2);
  // Near miss: a chain with a complete traceback is read by its exception line, not as cut.
  BundleFacts whole;
  whole.python.tracebacks.push_back(traceback(false, 0));
  whole.python.tracebacks.push_back(traceback(true, 0));
  out = run(whole);
  REQUIRE(out.size() == 1);
  CHECK(out[0].find_value("group.0")->find("traceback cut") == std::string::npos);
}
