// The HTML timeline's lanes (reports/timeline_lane_keys.h): rank, else device, else source.
#include <catch2/catch.hpp>

#include "reports/timeline_lane_keys.h"

using namespace triage;

namespace {

TimelineEvent event(std::string source, std::string host, std::optional<int64_t> pid, std::optional<int64_t> device) {
  TimelineEvent e;
  e.source = std::move(source);
  e.host = std::move(host);
  e.pid = pid;
  e.device = device;
  return e;
}

BundleFacts bundle(std::string host, int64_t pid, std::vector<std::pair<std::string, std::string>> env) {
  BundleFacts b;
  b.host = std::move(host);
  ProcessInfo p;
  p.pid = pid;
  p.has_environ = true;
  p.environ = std::move(env);
  b.processes.by_pid[pid] = p;
  return b;
}

std::vector<std::string> labels(const TimelineLanes& l) {
  std::vector<std::string> out;
  for (const auto& lane : l.lanes) out.push_back(lane.host.empty() ? lane.label : lane.host + " " + lane.label);
  return out;
}

}  // namespace

TEST_CASE("timeline lanes: ranks first, then devices, then sources in their order", "[html][lanes]") {
  Timeline t;
  t.events = {event("journal", "h", std::nullopt, std::nullopt), event("plog", "h", 10, std::nullopt),
              event("plog", "h", 10, 1), event("probe", "h", std::nullopt, 3), event("plog", "h", 20, std::nullopt),
              event("plog", "h", 11, std::nullopt)};
  EvidenceSet set;
  set.bundles.push_back(bundle("h", 11, {{"RANK_ID", "2"}}));
  RanksByProcess ranks = ranks_from_environ(set);
  REQUIRE(ranks.size() == 1);
  TimelineLanes l = assign_lanes(t, ranks);
  // pid 10 names device 1 once: its other line goes there too; pid 20 names none: plog lane.
  CHECK(labels(l) == std::vector<std::string>{"rank 2", "dev 1", "dev 3", "plog", "journal"});
  CHECK(l.of_event == std::vector<size_t>{4, 1, 1, 2, 3, 0});
  CHECK(l.lanes[3].by_source);
  CHECK_FALSE(l.lanes[0].by_source);
}

TEST_CASE("timeline lanes: host names lead rank and device lanes when several hosts", "[html][lanes]") {
  Timeline t;
  t.events = {event("plog", "node1", 5, std::nullopt), event("plog", "node0", 5, 0),
              event("collector", "node0", std::nullopt, std::nullopt),
              event("collector", "node1", std::nullopt, std::nullopt)};
  EvidenceSet set;
  set.bundles.push_back(bundle("node1", 5, {{"RANK", "3"}}));
  set.bundles.push_back(bundle("node0", 5, {{"RANK", "x1"}}));  // not a number: no rank
  TimelineLanes l = assign_lanes(t, ranks_from_environ(set));
  CHECK(labels(l) == std::vector<std::string>{"node1 rank 3", "node0 dev 0", "collector"});
  CHECK(l.of_event == std::vector<size_t>{0, 1, 2, 2});
}

TEST_CASE("timeline lanes: a pid with two ranks in two bundles of one host has none", "[html][lanes]") {
  EvidenceSet set;
  set.bundles.push_back(bundle("h", 7, {{"RANK", "1"}}));
  set.bundles.push_back(bundle("h", 7, {{"RANK", "2"}}));
  set.bundles.push_back(bundle("h", 8, {{"RANK", "4"}, {"RANK_ID", "9"}}));  // RANK wins
  RanksByProcess ranks = ranks_from_environ(set);
  CHECK(ranks.count({"h", 7}) == 0);
  CHECK(ranks.at({"h", 8}) == 4);
}

TEST_CASE("timeline lanes: at most 64 rank and device lanes, the rest by source", "[html][lanes]") {
  Timeline t;
  for (int64_t d = 0; d < 1000; ++d) t.events.push_back(event("device-log", "h", std::nullopt, d));
  TimelineLanes l = assign_lanes(t, {});
  REQUIRE(l.lanes.size() == 65);
  CHECK(l.lanes[63].label == "dev 63");
  CHECK(l.lanes[64].label == "device-log");
  CHECK(l.of_event[999] == 64);
  CHECK(l.of_event[5] == 5);
}
