// observation-point on in-memory facts: the traceback frame is linked to the stall of its
// process (by pid, by time, or as the only stalled process) and never called the cause.
#include <catch2/catch.hpp>

#include "correlator/analyses/observation_point.h"
#include "analysis_test_support.h"

#include <fmt/format.h>

#include <set>

#include "bundle_test_util.h"

using namespace triage;

namespace {

StallReport stall(int64_t pid, int64_t stream, int minute, int64_t line) {
  StallReport r;
  r.origin.pid = pid;
  r.device_id = 0;
  r.stream_id = stream;
  r.sq_id = 9;
  r.task_id = 1280;
  r.sq_head = 500;
  r.flip_num = 0;
  r.pending_num = 781;
  r.time.civil = CivilTime{2026, 9, 4, 9, minute, 58, 0};
  r.time.valid = true;
  r.evidence = make_evidence("plog-" + std::to_string(pid) + ".log", line, 0, "report three minutes timeout!");
  return r;
}

// A job output with one traceback ending at the loss, error 107020.
void add_traceback(BundleFacts& b, std::optional<int64_t> err_pid, std::optional<int> anchor_minute) {
  PythonFacts& py = b.python;
  py.streams.push_back(PyStream{"extra/train.log", "", std::nullopt, "", std::nullopt});
  PythonTraceback t;
  t.stream = 0;
  t.header_seen = t.complete = true;
  t.frames.push_back(PyFrame{"/root/work/det/train.py", 238, "<module>", "main()",
                             make_evidence("extra/train.log", 16, 0, "File train.py")});
  t.frames.push_back(PyFrame{"/root/work/det/det_toolkit/losses/retina_loss.py", 41, "anchor_gen",
                             "scale = torch.tensor([w, h, w, h])",
                             make_evidence("extra/train.log", 28, 0, "File retina_loss.py, line 41")});
  t.exception_type = "RuntimeError";
  t.message = "copy_between_host_and_device_opapi: NPU function error: AclrtSynchronizeStreamWithTimeout(stream), error code is 107020";
  t.error_code = 107020;
  t.evidence_start = make_evidence("extra/train.log", 15, 0, "Traceback (most recent call last):");
  t.evidence_exception = make_evidence("extra/train.log", 30, 0, "RuntimeError: ...");
  t.evidence_innermost = t.frames.back().evidence;
  if (err_pid) {
    ErrLine e;
    e.pid = *err_pid;
    e.code = "ERR00100";
    e.local = CivilTime{2026, 9, 4, 9, anchor_minute.value_or(45), 3, 0};
    e.evidence = make_evidence("extra/train.log", 31, 0, "[ERROR] ... ERR00100 PTA call acl api failed");
    py.err_lines.push_back(e);
    t.err_line = 0;
    t.anchor.kind = PyAnchorKind::err_line;
    t.anchor.pid = *err_pid;
    t.anchor.local = e.local;
    t.anchor.evidence = e.evidence;
  } else if (anchor_minute) {  // a timed report without a PID (2024 style)
    t.anchor.kind = PyAnchorKind::error_report;
    t.anchor.local = CivilTime{2026, 9, 4, 9, *anchor_minute, 3, 0};
    t.anchor.evidence = make_evidence("extra/train.log", 33, 0, "EI9999: 2026-09-04-09:45:03");
  }
  py.tracebacks.push_back(t);
}

std::vector<Finding> run(const EvidenceSet& ev) {
  std::vector<Finding> out;
  analyze_observation_point(testing::context_for(ev), out);
  return out;
}

EvidenceSet two_stalled_processes() {
  EvidenceSet ev;
  ev.bundles.emplace_back();
  auto& b = ev.bundles[0];
  b.host = "node7";
  for (int i = 0; i < 3; ++i) {
    b.logs.stalls.push_back(stall(48213, 47, 25 + 3 * i, 10 + i));
    b.logs.stalls.push_back(stall(31544, 45, 5 + 3 * i, 20 + i));  // an earlier, separate stall
  }
  ErrorCodeFact e;
  e.origin.pid = 48213;
  e.module = "RUNTIME";
  e.code = "107020";
  e.evidence = make_evidence("plog-48213.log", 40, 0, "rtStreamSynchronize:ErrCode=107020, desc=[task timeout]");
  b.logs.error_codes.push_back(e);
  return ev;
}

}  // namespace

TEST_CASE("observation-point: linked to the stall of the anchor's PID, one chain of evidence", "[stall]") {
  EvidenceSet ev = two_stalled_processes();
  add_traceback(ev.bundles[0], 48213, 45);
  auto fs = run(ev);
  REQUIRE(fs.size() == 1);
  const Finding& f = fs[0];
  CHECK(f.id == "observation-point");
  CHECK(f.severity == Severity::warning);
  CHECK(f.confidence == Confidence::high);
  CHECK(*f.find_value("frame") == "/root/work/det/det_toolkit/losses/retina_loss.py:41 anchor_gen");
  CHECK(*f.find_value("error_code") == "107020");
  CHECK(*f.find_value("pid") == "48213");
  CHECK(*f.find_value("linked_to") == "stream-stall pid 48213 device 0 stream 47 sq 9");
  CHECK(*f.find_value("link_method") == "pid");
  CHECK(*f.find_value("anchor") == "err_line");
  CHECK(f.title.find("observed, not its cause") != std::string::npos);
  CHECK(f.does_not_prove.find("faulty") != std::string::npos);
  // plog stall -> plog error -> ERR line -> exception -> innermost frame, in that order
  REQUIRE(f.evidence.size() == 6);
  CHECK(f.evidence[0].entry == "plog-48213.log");
  CHECK(f.evidence[2].line == 40);
  CHECK(f.evidence[3].line == 31);
  CHECK(f.evidence[5].line == 28);
}

TEST_CASE("observation-point: a traceback with no anchor is reported, linked only when unambiguous", "[stall]") {
  SECTION("two stalled processes: not linked") {
    EvidenceSet ev = two_stalled_processes();
    add_traceback(ev.bundles[0], std::nullopt, std::nullopt);
    auto fs = run(ev);
    REQUIRE(fs.size() == 1);
    CHECK(*fs[0].find_value("anchor") == "none");
    CHECK(*fs[0].find_value("linked_to") == "none");
    CHECK(fs[0].confidence == Confidence::low);
    CHECK(fs[0].observed.find("not time-anchored") != std::string::npos);
    CHECK(fs[0].supports.find("several processes stalled") != std::string::npos);
  }
  SECTION("one stalled process: linked, and says how") {
    EvidenceSet ev;
    ev.bundles.emplace_back();
    for (int i = 0; i < 2; ++i) ev.bundles[0].logs.stalls.push_back(stall(777, 3, 25 + 3 * i, i + 1));
    add_traceback(ev.bundles[0], std::nullopt, std::nullopt);
    auto fs = run(ev);
    REQUIRE(fs.size() == 1);
    CHECK(*fs[0].find_value("link_method") == "only stalled process");
    CHECK(*fs[0].find_value("pid") == "777");
    CHECK(fs[0].confidence == Confidence::low);
  }
}

TEST_CASE("observation-point: a timed anchor without PID links by time proximity", "[stall]") {
  EvidenceSet ev = two_stalled_processes();  // 31544 stalls 09:05-09:11, 48213 09:25-09:31
  add_traceback(ev.bundles[0], std::nullopt, 35);
  auto fs = run(ev);
  REQUIRE(fs.size() == 1);
  CHECK(*fs[0].find_value("link_method") == "time proximity");
  CHECK(*fs[0].find_value("pid") == "48213");
  CHECK(fs[0].confidence == Confidence::medium);
}

TEST_CASE("observation-point: a PID without a stalled stream is not linked to another process", "[stall]") {
  EvidenceSet ev = two_stalled_processes();
  add_traceback(ev.bundles[0], 99999, 45);
  auto fs = run(ev);
  REQUIRE(fs.size() == 1);
  CHECK(*fs[0].find_value("linked_to") == "none");
  CHECK(fs[0].supports.find("no stalled stream of pid 99999") != std::string::npos);
}

TEST_CASE("observation-point: a stream that kept moving is not what the error is linked to", "[stall]") {
  EvidenceSet ev;
  ev.bundles.emplace_back();
  auto a = stall(500, 47, 25, 1);
  auto b = stall(500, 47, 28, 2);
  b.sq_head = 700;  // moved
  ev.bundles[0].logs.stalls = {a, b};
  add_traceback(ev.bundles[0], 500, 45);
  auto fs = run(ev);
  REQUIRE(fs.size() == 1);
  CHECK(*fs[0].find_value("linked_to") == "none");
  CHECK(fs[0].confidence == Confidence::medium);  // anchored, not linked
}

TEST_CASE("observation-point: a failing synchronous call is not an observation point", "[stall]") {
  EvidenceSet ev;
  ev.bundles.emplace_back();
  add_traceback(ev.bundles[0], 6326, 32);
  auto& t = ev.bundles[0].python.tracebacks[0];
  t.message = "SetDevice:compiler_depend.ts:60 NPU function error: c10_npu::acl::AclrtSetDevice(device), error code is 507033";
  t.error_code = 507033;
  CHECK(run(ev).empty());
  t.message = "NPU function error: c10_npu::acl::AclrtSynchronizeDevice(), error code is 507015";
  t.error_code = 507015;
  CHECK(run(ev).size() == 1);  // an AICore exception seen at a device synchronize
}

TEST_CASE("observation-point: plain Python errors are not observation points", "[stall]") {
  EvidenceSet ev;
  ev.bundles.emplace_back();
  PythonTraceback t;
  t.complete = true;
  t.exception_type = "KeyError";
  t.message = "'bbox'";
  t.frames.push_back(PyFrame{"/x/data.py", 12, "load", "", make_evidence("job.log", 3, 0, "File")});
  PyStream stream;
  stream.entry = "job.log";
  ev.bundles[0].python.streams.push_back(stream);
  ev.bundles[0].python.tracebacks.push_back(t);
  CHECK(run(ev).empty());
}

TEST_CASE("observation-point: a traceback printed again and again is one finding that counts it", "[stall]") {
  // A job that retries prints the same traceback thousands of times (issue 35): one finding
  // per frame, exception, codes and process, every printed line accounted for.
  std::string log;
  auto traceback = [&](int pid, int second, int line) {
    log += fmt::format(
        "Traceback (most recent call last):\n  File \"/home/u/train.py\", line {}, in <module>\n"
        "    loss.backward()\n  File \"/usr/lib/python3/site-packages/torch/_tensor.py\", line 522, in backward\n"
        "    torch.autograd.backward(\nRuntimeError: ACL stream synchronize failed, error code is 507035\n"
        "[ERROR] 2026-03-02-13:52:{:02} (PID:{}, Device:0, RankID:0) ERR00100 PTA call acl api failed\n",
        line, second, pid);
  };
  traceback(4051, 0, 100);
  traceback(4052, 1, 100);
  traceback(4051, 2, 101);
  traceback(4051, 3, 102);
  Report r = triage::testing::analyze_one("train.log", log);
  std::vector<const Finding*> points;
  for (const auto& f : r.findings) {
    CHECK(f.id != "unexplained-errors");
    if (f.id == "observation-point") points.push_back(&f);
  }
  REQUIRE(points.size() == 2);
  CHECK(*points[0]->find_value("pid") == "4051");
  CHECK(*points[0]->find_value("tracebacks") == "3");
  CHECK(points[0]->observed.find("printed 3 times") != std::string::npos);
  CHECK(points[1]->find_value("tracebacks") == nullptr);
  // The exception lines of the second and third copy (lines 20 and 27) are accounted for.
  std::set<uint64_t> explained;
  for (const auto& e : points[0]->explains) explained.insert(e.line);
  CHECK(explained.count(20));
  CHECK(explained.count(27));
}
