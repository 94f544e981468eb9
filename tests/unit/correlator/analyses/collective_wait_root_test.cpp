// collective/wait-root over several ranks' pastes (correlator/analyses/collective_wait_root.cpp):
// the rank their lines say they waited on, and the near misses that name none. The lines are
// the real transport-init and heartbeat forms (tests/data/real/vllm-ascend-10591-*,
// real-log-excerpts.md) with the ranks and addresses of a made-up 3-rank job.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "bundle_test_util.h"
#include "correlator/correlate.h"

using namespace triage;
using namespace triage::testing;

namespace {

std::string transport_init(int pid, int rank, int remote, std::string time = "2026-06-17-02:21:43.853.333") {
  return "[ERROR] HCCL(" + std::to_string(pid) + ",):" + time + " [transport_manager.cc:954] "
         "[86231][InitChannelStage][RunFailed]Transport init error! createLink para:rank[" + std::to_string(rank) +
         "]-localUserrank[" + std::to_string(rank) + "]-localIpAddr[80.5.5.39/" + std::to_string(rank) +
         "], remoteRank[" + std::to_string(remote) + "]-remoteUserrank[" + std::to_string(remote) +
         "]-remoteIpAddr[80.5.5.67/" + std::to_string(remote) + "], machineType[0], linkMode[1], isUsedRdma[1], "
         "tag[AllGather_group_name_119]\n";
}

const std::string kDeviceTimeout =
    "[ERROR] RUNTIME(62613,python3):2026-03-02-14:33:45.818.000 [device_error_proc.cc:1389]62654 "
    "ProcessStarsHcclFftsPlusTimeoutErrorInfo:The error from device(chipId:0, dieId:0), serial number is 9, hccl "
    "fftsplus task timeout occurred during task execution, stream_id:5, sq_id:5, task_id:2212, stuck notify num:1, "
    "timeout:1836.\n";

// Loose pastes have no zone: `utc_offset` gives them one (--utc-offset), so their times order.
Report analyze_pastes(const std::vector<std::string>& texts, std::optional<int> utc_offset = std::nullopt) {
  TempDir dir;
  std::vector<std::string> paths;
  for (size_t i = 0; i < texts.size(); ++i) {
    paths.push_back(dir / ("rank" + std::to_string(i) + "/plog-" + std::to_string(100 + i) + "_1.log"));
    write_file(paths.back(), texts[i]);
  }
  AnalyzeOptions options;
  options.utc_offset_seconds = utc_offset;
  return correlate(load(paths, options).evidence, options);
}

const Finding* wait_root(const Report& r) {
  for (const auto& f : r.findings)
    if (f.id == "collective/wait-root") return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("wait root: two ranks could not link to the same remote rank", "[wait-graph]") {
  Report r = analyze_pastes({transport_init(101, 0, 3), transport_init(102, 1, 3)});
  const Finding* f = wait_root(r);
  REQUIRE(f);
  CHECK(f->observed == "rank 3 dev 3 at 80.5.5.67: 2 ranks waited on it");
  CHECK(*f->find_value("root_rank") == "3");
  CHECK(*f->find_value("root_ip") == "80.5.5.67");
  CHECK(*f->find_value("root_host") == "(no log read)");
  CHECK(*f->find_value("in_cycle") == "no");
  CHECK(f->evidence.size() == 2);
  CHECK(f->title == "The other ranks waited on rank 3 dev 3 at 80.5.5.67");
}

TEST_CASE("wait root: the rank waited on whose own log was read, through a chain", "[wait-graph]") {
  // 0 waits on 1 and 1 waits on 2: rank 2 is the root, rank 1 a waiter that is waited on.
  Report r = analyze_pastes({transport_init(101, 0, 1), transport_init(102, 1, 2)});
  const Finding* f = wait_root(r);
  REQUIRE(f);
  // Loose pastes name no host: each rank is told by its address.
  CHECK(f->observed == "rank 2 dev 2 at 80.5.5.67: 2 ranks waited on it (chain: rank 0 dev 0 at 80.5.5.39 -> "
                       "rank 1 dev 1 at 80.5.5.39 -> rank 2 dev 2 at 80.5.5.67)");
}

TEST_CASE("wait root: ranks that wait on each other root at the one whose process failed first", "[wait-graph]") {
  // Rank 0 waits on 1 and 1 on 0; rank 1's process had a device-side timeout an hour before
  // (its first error), rank 0's lines come earlier than rank 1's wait line.
  std::string early_error =
      "[ERROR] RUNTIME(102,python3):2026-06-17-01:20:00.000.000 [device_error_proc.cc:1389]62654 "
      "ProcessStarsHcclFftsPlusTimeoutErrorInfo:The error from device(chipId:0, dieId:0), serial number is 9, hccl "
      "fftsplus task timeout occurred during task execution, stream_id:5, sq_id:5, task_id:2212, stuck notify num:1, "
      "timeout:1836.\n";
  Report r = analyze_pastes({transport_init(101, 0, 1, "2026-06-17-02:00:00.000.000"),
                             early_error + transport_init(102, 1, 0, "2026-06-17-02:30:00.000.000")},
                            8 * 3600);
  const Finding* f = wait_root(r);
  REQUIRE(f);
  CHECK(*f->find_value("in_cycle") == "yes");
  CHECK(*f->find_value("root_rank") == "1");
  CHECK(f->title == "The ranks waited on each other; the first error in the cycle is rank 1 dev 1 at 80.5.5.39's");
  // Near miss: without rank 1's earlier error, rank 0's earlier wait line makes it first.
  Report plain = analyze_pastes({transport_init(101, 0, 1, "2026-06-17-02:00:00.000.000"),
                                 transport_init(102, 1, 0, "2026-06-17-02:30:00.000.000")},
                                8 * 3600);
  REQUIRE(wait_root(plain));
  CHECK(*wait_root(plain)->find_value("root_rank") == "0");
}

TEST_CASE("wait root, near misses: one rank's line, device-side timeouts that name no peer", "[wait-graph]") {
  CHECK(!wait_root(analyze_pastes({transport_init(101, 0, 3)})));
  CHECK(!wait_root(analyze_pastes({kDeviceTimeout, kDeviceTimeout})));
}

TEST_CASE("wait root: LINK_ERROR_INFO rows and the connect-timeout detector", "[wait-graph]") {
  // Ranks 1 and 2 time out linking to rank 0 (the HCCL troubleshooting guide's row shape);
  // rank 3's detector names rank 0's server and device.
  auto row = [](int pid, int rank) {
    return "[ERROR] HCCL(" + std::to_string(pid) + ",python3):2026-03-18-10:33:52.113.706 [hccl_socket_manager.cc:583] "
           "[18744]   |  192.0.2.199(0)   |  16666  |   192.0.3." + std::to_string(190 + rank) + "(" +
           std::to_string(rank) + ")   |  3234403008  |  client  | time out |   DISABLE  | LinkInfo\n";
  };
  Report r = analyze_pastes({row(101, 1), row(102, 2)});
  const Finding* f = wait_root(r);
  REQUIRE(f);
  CHECK(f->observed == "rank 0 at 192.0.2.199: 2 ranks waited on it");
  // The detector names the destination by server and device only.
  std::string detect =
      "[ERROR] HCCL(103,python3):2026-03-18-10:34:43.141.966 [detect_connect_anomalies.cc:132] [18744]This node "
      "(server 192.168.200.100, device ID 1) detects that srcRank (server 192.168.200.100, device ID 1) fails to "
      "connect to dstRank (server 192.168.200.101, device ID 0). Continue to analyze the fault based on the logs of "
      "srcRank and dstRank.\n";
  std::string detect2 = detect;
  detect2.replace(detect2.find("HCCL(103"), 8, "HCCL(104");
  detect2.replace(detect2.find("srcRank (server 192.168.200.100, device ID 1)"), 45, "srcRank (server 192.168.200.100, device ID 2)");
  Report d = analyze_pastes({detect, detect2});
  REQUIRE(wait_root(d));
  CHECK(wait_root(d)->observed == "192.168.200.101/0: 2 ranks waited on it");
}

TEST_CASE("wait root: a waited-on address resolves to its host's rank on that device", "[wait-graph][samples]") {
  // samples/fleet-4node: every other rank reports node3's device 1 lost by address
  // (10.20.7.14/1); node3's rank 6 names 10.20.7.14 as its own, and rank 7's environment says
  // device 1: the root is rank 7 on node3, not an address no log was read of.
  std::vector<std::string> paths;
  for (int n = 0; n < 4; ++n) paths.push_back(std::string(SAMPLES_DIR) + "/fleet-4node/node" + std::to_string(n));
  AnalyzeOptions options;
  Report r = correlate(load(paths, options).evidence, options);
  const Finding* f = wait_root(r);
  REQUIRE(f);
  CHECK(f->host == "node3");
  CHECK(f->observed == "rank 7 dev 1 on node3: 7 ranks waited on it");
  CHECK(*f->find_value("root_ip") == "10.20.7.14");
}

TEST_CASE("wait root: with several hosts, a cycle roots at the skew-corrected first error", "[wait-graph][samples]") {
  // samples/fleet-4node-skew: node3's clock runs 5 minutes ahead. Add a line of node3's rank 7
  // (its process, after its AI Core exception) that it could not link to rank 0: ranks 0 and 7
  // now wait on each other. By the clocks as read, rank 0's first error (its heartbeat report,
  // 31 s after the fault) comes before rank 7's (the fault, read 300 s late); corrected by the
  // skew the shared fftsplus timeouts measure, rank 7's comes first.
  std::vector<std::string> paths;
  for (int n = 0; n < 4; ++n) paths.push_back(std::string(SAMPLES_DIR) + "/fleet-4node-skew/node" + std::to_string(n));
  AnalyzeOptions options;
  LoadResult loaded = load(paths, options);
  BundleFacts* node3 = nullptr;
  for (auto& b : loaded.evidence.bundles)
    if (b.host == "node3") node3 = &b;
  REQUIRE(node3);
  const SignatureHit* fault = nullptr;
  for (const auto& h : node3->logs.signature_hits)
    if (h.id == "device-exception/aicore-error" || h.id == "device-exception/task-exception") fault = &h;
  REQUIRE(fault);
  REQUIRE(fault->pid);
  SignatureHit wait = *fault;
  wait.id = "hccl/transport-init";
  wait.severity = "error";
  wait.captures = {{"local_ip", "10.20.7.14/1"}, {"local_rank", "7"}, {"remote_ip", "10.20.7.11/0"}, {"remote_rank", "0"}};
  wait.time.time.utc_us += 60 * 1000000LL;
  node3->logs.signature_hits.push_back(wait);
  Report r = correlate(loaded.evidence, options);
  const Finding* f = wait_root(r);
  REQUIRE(f);
  CHECK(*f->find_value("in_cycle") == "yes");
  CHECK(*f->find_value("root_rank") == "7");
  CHECK(f->host == "node3");
  REQUIRE(f->find_value("clock_offsets"));
  CHECK(*f->find_value("clock_offsets") == "node3 +300.2 s");
}
