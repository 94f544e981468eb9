// The incident window (reports/timeline_focus.h): the run holding the longest stall, else the
// densest run of warnings and errors; installs and boots outside it named at its edges.
#include <catch2/catch.hpp>

#include "reports/timeline_focus.h"

using namespace triage;

namespace {

constexpr int64_t kMin = 60LL * 1000000;
constexpr int64_t kT0 = 1788485100LL * 1000000;  // 2026-09-04T01:25:00Z

TimelineEvent event(int64_t first, int64_t last, Severity sev, std::string kind = "log-line", uint64_t count = 1) {
  TimelineEvent e;
  e.first_utc_us = first;
  e.last_utc_us = last;
  e.severity = sev;
  e.kind = std::move(kind);
  e.count = count;
  e.source = "plog";
  e.message = "m";
  return e;
}

}  // namespace

TEST_CASE("focus: the run with the stall wins over a denser run of errors", "[timeline][focus]") {
  Timeline t;
  t.events.push_back(event(kT0 - 90 * 24 * 60 * kMin, kT0 - 90 * 24 * 60 * kMin, Severity::info, "install"));
  TimelineEvent stall = event(kT0, kT0 + 18 * kMin, Severity::warning, "signature:stream-stall/three-minute-report", 7);
  stall.finding_ids = {"stream-stall"};
  stall.stream = 47;
  t.events.push_back(stall);
  t.events.push_back(event(kT0 + 20 * kMin, kT0 + 20 * kMin, Severity::error));
  for (int i = 0; i < 10; ++i)  // an hour later, after a reboot: more errors, no stall
    t.events.push_back(event(kT0 + 80 * kMin + i, kT0 + 80 * kMin + i, Severity::error));
  BootMark reboot;
  reboot.start_utc_us = kT0 + 70 * kMin;
  reboot.after_previous = true;
  t.boots.push_back(reboot);
  auto w = focus_window(t);
  REQUIRE(w);
  CHECK(w->lo < kT0);
  CHECK(w->hi > kT0 + 20 * kMin);
  CHECK(w->hi < kT0 + 70 * kMin);
  CHECK(w->stalls == 1);
  CHECK(w->errors == 1);
  CHECK(w->why == "the stall of stream 47 and 1 error(s), 0 warning(s) around it");
  REQUIRE(w->before.size() == 1);
  CHECK(w->before[0].label == "install: m");
  REQUIRE(w->after.size() == 1);
  CHECK(w->after[0].label == "reboot");
  // A single line the stall finding cites is not the stall's run.
  TimelineEvent cited = event(kT0 + 80 * kMin, kT0 + 80 * kMin, Severity::error);
  cited.finding_ids = {"stream-stall"};
  CHECK(!is_stall_event(cited));
  CHECK(is_stall_event(stall));
}

TEST_CASE("focus: without a stall the densest run; none when it spans the range", "[timeline][focus]") {
  Timeline t;
  t.events.push_back(event(kT0 - 30 * 24 * 60 * kMin, kT0 - 30 * 24 * 60 * kMin, Severity::warning));
  for (int i = 0; i < 3; ++i) t.events.push_back(event(kT0 + i * kMin, kT0 + i * kMin, Severity::error));
  auto w = focus_window(t);
  REQUIRE(w);
  CHECK(w->errors == 3);
  CHECK(w->why == "the densest run of warnings and errors: 3 error(s), 0 warning(s)");

  Timeline flat;
  for (int i = 0; i < 5; ++i) flat.events.push_back(event(kT0 + i * 10 * kMin, kT0 + i * 10 * kMin, Severity::error));
  CHECK(!focus_window(flat));  // one run over the whole range: nothing to zoom into
  Timeline quiet;
  quiet.events.push_back(event(kT0, kT0, Severity::info));
  CHECK(!focus_window(quiet));
}
