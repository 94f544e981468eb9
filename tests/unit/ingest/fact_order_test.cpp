// The walk order that facts are put in (ingest/fact_order.cpp) is the order a directory is
// read in (bundle/directory_reader.cpp), whatever order an archive stores its members in.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "bundle_test_util.h"
#include "ingest/fact_order.h"

using triage::walk_order_less;

TEST_CASE("walk order: components one by one, manifest.json first in its directory", "[bundle][order]") {
  CHECK(walk_order_less("a/x", "a-b/x"));  // byte order of whole paths would put a-b first
  CHECK_FALSE(walk_order_less("a-b/x", "a/x"));
  CHECK(walk_order_less("manifest.json", "SOURCE.md"));
  CHECK(walk_order_less("manifest.json", "kernel/dmesg.txt"));
  CHECK(walk_order_less("ticket/manifest.json", "ticket/a.txt"));
  CHECK(walk_order_less("logs/debug/plog/p.log", "logs/run/plog/p.log"));
  CHECK(walk_order_less("a", "a/b"));
  CHECK_FALSE(walk_order_less("a/b", "a/b"));

  const std::vector<std::string> walked = {"manifest.json", "a/manifest.json", "a/x", "a-b/x",
                                           "a.txt", "kernel/dmesg.txt", "kernel/syslog/m"};
  auto shuffled = walked;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(23));
  std::sort(shuffled.begin(), shuffled.end(), walk_order_less);
  CHECK(shuffled == walked);
}

// A plog line copied in run/ and debug/ keeps the debug/ copy (first in walk order: a
// directory is read so), whichever copy the archive stores first. (The debug/ copy holds more
// context; read first, the run/ copy used to win.)
TEST_CASE("a plog line in run/ and debug/ keeps the copy first in walk order", "[bundle][order]") {
  using namespace triage;
  using namespace triage::testing;
  const std::string stall =
      "[EVENT] RUNTIME(20131,python3):2026-09-10-14:06:30.430.102 [stream.cc:1402]20131 "
      "SynchronizeExecutedTask:report three minutes timeout! stream_id=13, sq_id=3, task_id=1380, "
      "sqHead=120, flip_num=0, pendingNum=1408.\n";
  const std::string device =
      "[INFO] ASCENDCL(20131,python3):2026-09-10-14:02:19.979.250 [device.cpp:62]20131 "
      "aclrtSetDevice:start to execute aclrtSetDevice, deviceId=0\n";
  const std::string log = "logs/host/root/ascend/log/";
  const std::string name = "/plog/plog-20131_20260910140219501.log";
  std::vector<Member> members = {{log + "debug" + name, device + stall}, {log + "run" + name, stall}};
  TempDir tmp;
  for (bool run_first : {false, true}) {
    INFO("run/ stored first: " << run_first);
    auto stored = members;
    if (run_first) std::swap(stored[0], stored[1]);
    std::string path = tmp / (run_first ? "run-first.tar" : "debug-first.tar");
    write_archive(path, stored, ArchiveFormat::tar, Filter::none);
    LoadResult loaded = load({path});
    const LogFacts& logs = loaded.evidence.bundles.at(0).logs;
    REQUIRE(logs.stalls.size() == 1);
    CHECK(logs.stalls[0].evidence.entry == path + "!" + log + "debug" + name);
  }
}
