// Collapsing, boot splits, cross-bundle duplicates, finding links, filters and ordering of
// the timeline, on occurrences and marks built in the test.
#include <catch2/catch.hpp>

#include "correlator/timeline/timeline_internal.h"

using namespace triage;

namespace {

constexpr int64_t kS = 1000000;
const int64_t kT0 = *parse_iso8601_utc_us("2026-09-04T01:25:58Z");

TimelineOccurrence occ(int64_t t, std::string message, std::string source = "plog",
                       std::optional<int64_t> stream = 47, size_t bundle = 0,
                       uint64_t line = 0) {
  TimelineOccurrence o;
  o.bundle = bundle;
  o.signature = "stream-stall/three-minute-report";
  o.event.first_utc_us = o.event.last_utc_us = t;
  o.event.source = std::move(source);
  o.event.kind = "signature:stream-stall/three-minute-report";
  o.event.severity = Severity::warning;
  o.event.message = std::move(message);
  o.event.host = "node07";
  o.event.pid = 48213;
  o.event.stream = stream;
  o.event.evidence.entry = "b" + std::to_string(bundle) + "/plog-48213.log";
  o.event.evidence.line = line ? line : static_cast<uint64_t>(t / kS % 100000);
  return o;
}

std::string stall(int task, int head, int pending) {
  return "SynchronizeExecutedTask:report three minutes timeout! stream_id=47, sq_id=9, task_id=" +
         std::to_string(task) + ", sqHead=" + std::to_string(head) +
         ", flip_num=0, pendingNum=" + std::to_string(pending) + ".";
}

BootMark boot(int64_t t, std::string id, std::string host = "node07") {
  BootMark b;
  b.host = std::move(host);
  b.boot_id = std::move(id);
  b.start_utc_us = t;
  return b;
}

}  // namespace

TEST_CASE("timeline: numbers, hex and ids are normalised for the collapse key", "[timeline]") {
  CHECK(normalise_message("task_id=1280, sqHead=500") == "task_id=#, sqHead=#");
  CHECK(normalise_message("addr 0x7ffd1234 InnerCode=0x7150026") == "addr # InnerCode=#");
  CHECK(normalise_message("boot 596ee2d3f59b49cda5d4642c5fb09f18 up") == "boot # up");
  CHECK(normalise_message("drv_pcie_host   needs  unknown symbol") == "drv_pcie_host needs unknown symbol");
  CHECK(normalise_message("davinci0 ascend910b") == "davinci0 ascend910b");  // words stay words
  CHECK(normalise_message("  lead and trail  ") == "lead and trail");
}

TEST_CASE("timeline: a stall report every 180 s collapses into one row with count, first, last",
          "[timeline]") {
  std::vector<TimelineOccurrence> in;
  for (int i = 6; i >= 0; --i) in.push_back(occ(kT0 + i * 180 * kS, stall(1280, 500, 781 + i)));
  in.push_back(occ(kT0 + 13 * kS, stall(222, 222, 418), "plog", 51));  // stream 51: its own row
  uint64_t undated = 0;
  std::unordered_map<std::string, size_t> rows_of;
  auto rows = collapse_occurrences(in, {}, undated, rows_of);
  REQUIRE(rows.size() == 2);
  const TimelineEvent* s47 = rows[0].stream == 47 ? &rows[0] : &rows[1];
  CHECK(s47->count == 7);
  CHECK(format_utc(s47->first_utc_us) == "2026-09-04T01:25:58Z");
  CHECK(format_utc(s47->last_utc_us) == "2026-09-04T01:43:58Z");
  CHECK(s47->message == stall(1280, 500, 781));  // the first occurrence's own text
  CHECK(undated == 0);
  CHECK(rows_of.size() == 8);  // every occurrence's line points at its row
}

TEST_CASE("timeline: a reboot between two occurrences starts a new row", "[timeline]") {
  std::vector<TimelineOccurrence> in{occ(kT0, stall(1, 1, 1)), occ(kT0 + 100 * kS, stall(2, 2, 2)),
                                     occ(kT0 + 900 * kS, stall(3, 3, 3))};
  std::vector<BootMark> boots{boot(kT0 + 500 * kS, "b"), boot(kT0 + 200 * kS, "x", "other-host")};
  uint64_t undated = 0;
  std::unordered_map<std::string, size_t> rows_of;
  auto rows = collapse_occurrences(in, boots, undated, rows_of);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].count == 2);
  CHECK(rows[1].count == 1);
  CHECK(rows[1].first_utc_us == kT0 + 900 * kS);
}

TEST_CASE("timeline: the same line read from two bundles of one host counts once", "[timeline]") {
  // The after-reboot bundle carries the pre-reboot plog again.
  std::vector<TimelineOccurrence> in{occ(kT0, stall(1, 1, 1), "plog", 47, 0, 10),
                                     occ(kT0, stall(1, 1, 1), "plog", 47, 1, 10),
                                     occ(kT0 + 180 * kS, stall(1, 1, 1), "plog", 47, 1, 11)};
  // Two identical lines at one instant within one file are two occurrences.
  in.push_back(occ(kT0 + 5000 * kS, "x", "plog", 47, 0, 20));
  in.push_back(occ(kT0 + 5000 * kS, "x", "plog", 47, 0, 21));
  uint64_t undated = 0;
  std::unordered_map<std::string, size_t> rows_of;
  auto rows = collapse_occurrences(in, {}, undated, rows_of);
  REQUIRE(rows.size() == 2);
  const TimelineEvent& s = rows[0].message == "x" ? rows[1] : rows[0];
  const TimelineEvent& x = rows[0].message == "x" ? rows[0] : rows[1];
  CHECK(s.count == 2);
  CHECK(x.count == 2);
  // Both copies of the duplicated line lead to the row (findings cite either bundle).
  CHECK(rows_of.count("b0/plog-48213.log\x1f" "10"));
  CHECK(rows_of.count("b1/plog-48213.log\x1f" "10"));
}

TEST_CASE("timeline: undated occurrences are counted, not placed", "[timeline]") {
  std::vector<TimelineOccurrence> in{occ(kT0, "a"), occ(0, "b")};
  in[1].dated = false;
  uint64_t undated = 0;
  std::unordered_map<std::string, size_t> rows_of;
  auto rows = collapse_occurrences(in, {}, undated, rows_of);
  CHECK(rows.size() == 1);
  CHECK(undated == 1);
}

TEST_CASE("timeline: findings are linked to the rows holding their evidence lines",
          "[timeline]") {
  std::vector<TimelineOccurrence> in{occ(kT0, "a", "plog", 47, 0, 5), occ(kT0 + kS, "b", "plog", 47, 0, 6)};
  in[1].also_seen.push_back(EvidenceRef{"kernel/dmesg.txt", 9, 0, ""});
  uint64_t undated = 0;
  std::unordered_map<std::string, size_t> rows_of;
  auto rows = collapse_occurrences(in, {}, undated, rows_of);
  Finding f1;
  f1.id = "stream-stall";
  f1.evidence.push_back(EvidenceRef{"b0/plog-48213.log", 5, 0, ""});
  f1.evidence.push_back(EvidenceRef{"b0/plog-48213.log", 5, 0, ""});  // cited twice, linked once
  Finding f2;
  f2.id = "kernel-driver-error";
  f2.evidence.push_back(EvidenceRef{"kernel/dmesg.txt", 9, 0, ""});
  f2.evidence.push_back(EvidenceRef{"system/uname.txt", 0, 0, ""});  // a whole file: no row
  link_findings(rows, rows_of, {f1, f2});
  const TimelineEvent& a = rows[0].message == "a" ? rows[0] : rows[1];
  const TimelineEvent& b = rows[0].message == "a" ? rows[1] : rows[0];
  CHECK(a.finding_ids == std::vector<std::string>{"stream-stall"});
  CHECK(b.finding_ids == std::vector<std::string>{"kernel-driver-error"});
}

TEST_CASE("timeline: boots merge per host and boot id; later boots are reboots", "[timeline]") {
  auto merged = merge_boots({boot(kT0 + 10 * kS, "b"), boot(kT0, "a"), boot(kT0 + 10 * kS, "b"),
                             boot(kT0 + 5 * kS, "z", "other")});
  REQUIRE(merged.size() == 3);
  CHECK(merged[0].boot_id == "a");
  CHECK_FALSE(merged[0].after_previous);
  CHECK(merged[1].boot_id == "b");
  CHECK(merged[1].after_previous);
  CHECK(merged[2].host == "other");
  CHECK_FALSE(merged[2].after_previous);
}

TEST_CASE("timeline: filters by time, lane and severity, and says how many were removed",
          "[timeline]") {
  auto make = [] {
    Timeline t;
    for (int i = 0; i < 4; ++i) {
      TimelineEvent e;
      e.first_utc_us = kT0 + i * 3600 * kS;
      e.last_utc_us = e.first_utc_us + 600 * kS;
      e.source = i % 2 ? "journal" : "plog";
      e.severity = i == 3 ? Severity::error : Severity::info;
      e.message = "e" + std::to_string(i);
      t.events.push_back(e);
    }
    t.boots.push_back(boot(kT0 + 2 * 3600 * kS, "b"));
    return t;
  };
  Timeline t = make();
  TimelineFilter f;
  f.since_utc_us = kT0 + 3600 * kS + 300 * kS;  // inside e1's span: e1 stays
  f.until_utc_us = kT0 + 3 * 3600 * kS - kS;      // before e3
  apply_timeline_filter(t, f);
  REQUIRE(t.events.size() == 2);
  CHECK(t.events[0].message == "e1");
  CHECK(t.events[1].message == "e2");
  CHECK(t.filtered_out == 2);
  CHECK(t.boots.size() == 1);

  t = make();
  f = {};
  f.sources = {"journal"};
  apply_timeline_filter(t, f);
  CHECK(t.events.size() == 2);
  CHECK(t.filtered_out == 2);

  t = make();
  f = {};
  f.min_severity = Severity::warning;
  f.until_utc_us = kT0;
  apply_timeline_filter(t, f);
  CHECK(t.events.empty());
  CHECK(t.filtered_out == 4);
  CHECK(t.boots.empty());
}

TEST_CASE("timeline: rows are ordered by first time, then lane, then message", "[timeline]") {
  Timeline t;
  for (auto [off, src, msg] : {std::tuple{10, "plog", "b"}, std::tuple{0, "plog", "z"},
                               std::tuple{10, "journal", "c"}, std::tuple{10, "plog", "a"}}) {
    TimelineEvent e;
    e.first_utc_us = e.last_utc_us = kT0 + off * kS;
    e.source = src;
    e.message = msg;
    t.events.push_back(e);
  }
  sort_timeline(t);
  CHECK(t.events[0].message == "z");
  CHECK(t.events[1].message == "c");
  CHECK(t.events[2].message == "a");
  CHECK(t.events[3].message == "b");
}

TEST_CASE("timeline: given the cited lines, only those are linked to rows; the rows are the same",
          "[timeline]") {
  std::vector<TimelineOccurrence> in;
  for (int i = 0; i < 5; ++i) in.push_back(occ(kT0 + i * 180 * kS, stall(1280, 500, 781 + i)));
  in.push_back(occ(kT0 + 13 * kS, stall(222, 222, 418), "plog", 51));
  uint64_t undated_all = 0, undated_cited = 0;
  std::unordered_map<std::string, size_t> all, cited_rows;
  auto rows_all = collapse_occurrences(in, {}, undated_all, all);
  std::unordered_set<std::string> cited{line_key(in[3].event.evidence), "b9/none\x1f" "1"};
  auto rows_cited = collapse_occurrences(in, {}, undated_cited, cited_rows, &cited);
  REQUIRE(rows_all.size() == rows_cited.size());
  for (size_t i = 0; i < rows_all.size(); ++i) {
    CHECK(rows_all[i].message == rows_cited[i].message);
    CHECK(rows_all[i].count == rows_cited[i].count);
    CHECK(rows_all[i].first_utc_us == rows_cited[i].first_utc_us);
    CHECK(rows_all[i].last_utc_us == rows_cited[i].last_utc_us);
  }
  REQUIRE(cited_rows.size() == 1);
  CHECK(cited_rows.begin()->second == all.at(line_key(in[3].event.evidence)));
}
