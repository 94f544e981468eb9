// One list of timeline lanes (model/timeline_lanes.h): docs/timeline.md's table of lanes
// names exactly those, and every lane the timeline writes is one of them.
#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <string>

#include "model/timeline_lanes.h"
#include "bundle_test_util.h"
#include "correlator/correlate.h"

using namespace triage;

TEST_CASE("timeline lanes: docs/timeline.md's lane table is the list", "[timeline][docs]") {
  std::ifstream in(std::string(TEST_DATA_DIR) + "/../docs/timeline.md");
  REQUIRE(in);
  std::string line;
  bool in_table = false;
  std::set<std::string> documented;
  while (std::getline(in, line)) {
    if (line.starts_with("## ")) in_table = line == "## Sources (lanes)";
    if (in_table && line.starts_with("| `")) documented.insert(line.substr(3, line.find('`', 3) - 3));
  }
  std::set<std::string> listed(kTimelineLanes.begin(), kTimelineLanes.end());
  CHECK(documented == listed);
  CHECK(listed.size() == kTimelineLanes.size());
}

TEST_CASE("timeline lanes: every event of the samples is in a listed lane", "[timeline]") {
  std::set<std::string> listed(kTimelineLanes.begin(), kTimelineLanes.end()), seen;
  for (const char* sample : {"incident-910b-before-reboot", "incident-910b-after-reboot", "healthy-after-reinstall"}) {
    LoadResult loaded = testing::load({std::string(TEST_DATA_DIR) + "/../samples/" + sample});
    Report report = correlate(loaded.evidence, AnalyzeOptions{});
    for (const auto& e : report.timeline.events) {
      INFO(sample << ": " << e.message);
      CHECK(listed.count(e.source) == 1);
      seen.insert(e.source);
    }
  }
  CHECK(seen.size() >= 6);  // the samples exercise most lanes; fewer means they moved
}
