// stream-stall on in-memory facts: which report sequences are a stall, a slow step, or
// inconclusive, and how duplicates, wraps, clock steps and mixed processes are handled.
#include <catch2/catch.hpp>

#include "correlator/analyses/stream_stall.h"
#include "analysis_test_support.h"

using namespace triage;

namespace {

struct Sample {
  int64_t pid, stream;
  int minute;  // local minute of 2026-03-01 10:mm:00
  int64_t task, head, flip, pending;
  int64_t line;
  std::string entry = "logs/host/root/ascend/log/debug/plog/plog-x.log";
  std::optional<int64_t> device = 3;
  bool old = false;
  int second = 0;
};

StallReport report(const Sample& s) {
  StallReport r;
  r.origin.pid = s.pid;
  r.device_id = s.device;
  r.stream_id = s.stream;
  r.task_id = s.task;
  r.pending_num = s.pending;
  r.old_variant = s.old;
  if (!s.old) {
    r.sq_id = s.stream + 100;
    r.sq_head = s.head;
    r.flip_num = s.flip;
  }
  r.time.civil = CivilTime{2026, 3, 1, 10, s.minute, s.second, 0};
  r.time.valid = true;
  r.time.time.utc_us = civil_to_epoch_us(r.time.civil) - int64_t{8} * 3600 * 1000000;
  r.time.time.basis = TimeBasis::local_known_zone;
  r.evidence = make_evidence(s.entry, s.line, s.line * 100, "[EVENT] RUNTIME ... report three minutes timeout!");
  return r;
}

EvidenceSet evidence_of(const std::vector<Sample>& samples) {
  EvidenceSet ev;
  ev.bundles.emplace_back();
  ev.bundles[0].host = "node1";
  for (const auto& s : samples) ev.bundles[0].logs.stalls.push_back(report(s));
  return ev;
}

std::vector<Finding> run(const EvidenceSet& ev) {
  std::vector<Finding> out;
  analyze_stream_stall(testing::context_for(ev), out);
  return out;
}

const Finding* find(const std::vector<Finding>& fs, std::string_view id, std::string_view stream) {
  for (const auto& f : fs)
    if (f.id == id && *f.find_value("stream_id") == stream) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("stream-stall: frozen head on an arbitrary pid, device and stream is a stall", "[stall]") {
  auto fs = run(evidence_of({{7001, 3, 0, 900, 12, 2, 40, 10},
                             {7001, 3, 3, 900, 12, 2, 40, 20},
                             {7001, 3, 6, 900, 12, 2, 41, 30}}));
  REQUIRE(fs.size() == 1);
  const Finding& f = fs[0];
  CHECK(f.id == "stream-stall");
  CHECK(f.severity == Severity::error);
  CHECK(f.confidence == Confidence::high);
  CHECK(f.host == "node1");
  CHECK(*f.find_value("pid") == "7001");
  CHECK(*f.find_value("device") == "3");
  CHECK(*f.find_value("stream_id") == "3");
  CHECK(*f.find_value("sq_id") == "103");
  CHECK(*f.find_value("sq_head") == "12");
  CHECK(*f.find_value("flip_num") == "2");
  CHECK(*f.find_value("pending_num") == "41");
  CHECK(*f.find_value("samples") == "3");
  CHECK(*f.find_value("span_s") == "360");
  CHECK(*f.find_value("first_utc") == "2026-03-01T02:00:00Z");
  CHECK(*f.find_value("last_local") == "2026-03-01T10:06:00+08:00");
  CHECK(f.supports.find("stopped at or before 2026-03-01T10:00:00+08:00") != std::string::npos);
  CHECK(!f.does_not_prove.empty());
  CHECK(f.evidence.size() == 3);
  CHECK(f.evidence.front().line == 10);
  CHECK(f.evidence.back().line == 30);
}

TEST_CASE("stream-stall: a moving head is slow progress, not a stall", "[stall]") {
  auto fs = run(evidence_of({{20131, 13, 0, 1380, 120, 0, 1408, 1},
                             {20131, 13, 3, 1652, 388, 0, 1140, 2},
                             {20131, 13, 6, 2170, 902, 0, 626, 3}}));
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].id == "stream-stall/progressing");
  CHECK(fs[0].severity == Severity::info);
  CHECK(fs[0].supports.find("compilation") != std::string::npos);
}

TEST_CASE("stream-stall: a flip wrap (smaller head, new flip) is progress", "[stall]") {
  auto fs = run(evidence_of({{5, 2, 0, 100, 4000, 0, 300, 1}, {5, 2, 3, 100, 12, 1, 300, 2}}));
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].id == "stream-stall/progressing");
}

TEST_CASE("stream-stall: the same head with a falling backlog is progress", "[stall]") {
  auto fs = run(evidence_of({{5, 2, 0, 100, 40, 0, 300, 1}, {5, 2, 3, 100, 40, 0, 200, 2}}));
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].id == "stream-stall/progressing");
}

TEST_CASE("stream-stall: a stream that moved and then froze is a stall from the freeze", "[stall]") {
  auto fs = run(evidence_of({{5, 2, 0, 100, 40, 0, 300, 1},
                             {5, 2, 3, 180, 90, 0, 250, 2},
                             {5, 2, 6, 180, 90, 0, 250, 3}}));
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].id == "stream-stall");
  CHECK(fs[0].confidence == Confidence::medium);  // two frozen reports
  CHECK(*fs[0].find_value("samples") == "2");
  CHECK(*fs[0].find_value("first_local") == "2026-03-01T10:03:00+08:00");
}

TEST_CASE("stream-stall: interleaved streams of two processes are told apart", "[stall]") {
  // pid 48213 stream 47 frozen; pid 48300 stream 47 (same number, another process) moving.
  auto fs = run(evidence_of({{48213, 47, 0, 1280, 500, 0, 781, 1},
                             {48300, 47, 0, 10, 10, 0, 90, 2, "plog-48300.log", 1},
                             {48213, 47, 3, 1280, 500, 0, 781, 3},
                             {48300, 47, 3, 60, 60, 0, 40, 4, "plog-48300.log", 1},
                             {48213, 47, 6, 1280, 500, 0, 781, 5}}));
  REQUIRE(fs.size() == 2);
  int stalls = 0, moving = 0;
  for (const auto& f : fs) {
    if (f.id == "stream-stall") {
      ++stalls;
      CHECK(*f.find_value("pid") == "48213");
      CHECK(*f.find_value("samples") == "3");
    } else if (f.id == "stream-stall/progressing") {
      ++moving;
      CHECK(*f.find_value("pid") == "48300");
      CHECK(*f.find_value("device") == "1");
    }
  }
  CHECK(stalls == 1);
  CHECK(moving == 1);
}

TEST_CASE("stream-stall: identical lines from run/, debug/ and stdout count once", "[stall]") {
  std::vector<Sample> s;
  for (int i = 0; i < 3; ++i) {
    Sample base{9, 4, 3 * i, 50, 20, 0, 70, 10 + i};
    s.push_back(base);
    Sample run = base;
    run.entry = "logs/host/root/ascend/log/run/plog/plog-x.log";
    run.line = i + 1;
    s.push_back(run);
    Sample out = base;
    out.entry = "extra/job.out";
    out.line = 100 + i;
    s.push_back(out);
  }
  auto fs = run(evidence_of(s));
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].id == "stream-stall");
  CHECK(*fs[0].find_value("samples") == "3");
  CHECK(fs[0].observed.find("6 identical copies") != std::string::npos);
}

TEST_CASE("stream-stall: the old variant compares task_id and pendingNum", "[stall]") {
  Sample a{31, 45, 0, 1187, 0, 0, 805, 1};
  a.old = true;
  Sample b = a;
  b.minute = 3;
  b.line = 2;
  auto fs = run(evidence_of({a, b}));
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].id == "stream-stall");
  CHECK(*fs[0].find_value("sq_head") == "unknown");
  CHECK(*fs[0].find_value("task_id") == "1187");
  CHECK(fs[0].find_value("variant")->find("sqHead") == std::string::npos);

  Sample c = b;
  c.task = 1200;
  auto moving = run(evidence_of({a, c}));
  REQUIRE(moving.size() == 1);
  CHECK(moving[0].id == "stream-stall/progressing");
}

TEST_CASE("stream-stall: a clock going backwards keeps file order and is noted", "[stall]") {
  // Line order: 10:06, 10:00 (clock stepped back), 10:03; values frozen.
  auto fs = run(evidence_of({{8, 6, 6, 70, 33, 1, 12, 1}, {8, 6, 0, 70, 33, 1, 12, 2}, {8, 6, 3, 70, 33, 1, 12, 3}}));
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].id == "stream-stall");
  CHECK(fs[0].confidence == Confidence::medium);
  CHECK(*fs[0].find_value("clock_backwards") == "true");
  CHECK(fs[0].observed.find("clock went backwards") != std::string::npos);
  CHECK(fs[0].evidence.front().line == 1);

  // A backwards step between moving reports does not turn them into a stall.
  auto moving = run(evidence_of({{8, 6, 6, 70, 33, 1, 12, 1}, {8, 6, 0, 90, 50, 1, 10, 2}}));
  REQUIRE(moving.size() == 1);
  CHECK(moving[0].id == "stream-stall/progressing");
}

TEST_CASE("stream-stall: one report is inconclusive; two at the same time are one sample", "[stall]") {
  auto fs = run(evidence_of({{3, 1, 0, 10, 5, 0, 9, 1}}));
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].id == "stream-stall/single-sample");
  CHECK(fs[0].severity == Severity::info);
  CHECK(fs[0].confidence == Confidence::low);

  auto same_time = run(evidence_of({{3, 1, 0, 10, 5, 0, 9, 1}, {3, 1, 0, 10, 5, 0, 10, 2}}));
  REQUIRE(same_time.size() == 1);
  CHECK(same_time[0].id == "stream-stall/single-sample");
}

TEST_CASE("stream-stall: reports without a device join the stream's one known device", "[stall]") {
  Sample a{4, 9, 0, 10, 5, 0, 9, 1};
  a.device.reset();
  Sample b{4, 9, 3, 10, 5, 0, 9, 2};
  auto fs = run(evidence_of({a, b}));
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].id == "stream-stall");
  CHECK(*fs[0].find_value("device") == "3");
}

TEST_CASE("stream-stall: hard sync timeouts join their stream or stand alone", "[stall]") {
  EvidenceSet ev = evidence_of({{11, 5, 0, 10, 5, 0, 9, 1}, {11, 5, 3, 10, 5, 0, 9, 2}});
  StreamSyncTimeout t;
  t.origin.pid = 11;
  t.stream_id = 5;
  t.device_id = 3;
  t.timeout_ms = 1800000;
  t.try_count = 2;
  t.time.civil = CivilTime{2026, 3, 1, 10, 7, 0, 0};
  t.time.valid = true;
  t.evidence = make_evidence("plog-x.log", 9, 900, "Stream synchronize timeout, device_id=3, stream_id=5");
  ev.bundles[0].logs.sync_timeouts.push_back(t);
  StreamSyncTimeout other = t;
  other.stream_id = 6;
  other.evidence.line = 10;
  ev.bundles[0].logs.sync_timeouts.push_back(other);
  ev.bundles[0].logs.sync_timeouts.push_back(other);  // a copy counts once
  auto fs = run(ev);
  REQUIRE(fs.size() == 2);
  const Finding* stall = find(fs, "stream-stall", "5");
  REQUIRE(stall);
  CHECK(*stall->find_value("sync_timeouts") == "1");
  CHECK(stall->evidence.back().line == 9);
  const Finding* alone = find(fs, "stream-stall/sync-timeout", "6");
  REQUIRE(alone);
  CHECK(alone->severity == Severity::warning);
  CHECK(*alone->find_value("timeout_ms") == "1800000");
}

TEST_CASE("stream-stall: without a zone the times stay local and the report says so", "[stall]") {
  EvidenceSet ev = evidence_of({{2, 1, 0, 10, 5, 0, 9, 1}, {2, 1, 3, 10, 5, 0, 9, 2}});
  for (auto& r : ev.bundles[0].logs.stalls) r.time.time = Timestamp{};
  auto fs = run(ev);
  REQUIRE(fs.size() == 1);
  CHECK(*fs[0].find_value("first_utc") == "unknown");
  CHECK(*fs[0].find_value("first_local") == "2026-03-01T10:00:00 (zone unknown)");
  CHECK(fs[0].observed.find("zone is unknown") != std::string::npos);
}
