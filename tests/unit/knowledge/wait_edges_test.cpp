// knowledge/wait-edges.tsv: which lines name the rank they wait on, on verbatim lines
// (tests/data/real/) and their near misses; the loader rejects a row that breaks its samples.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "knowledge/wait_edges.h"

using namespace triage;

TEST_CASE("wait edges: the built-in table loads and each row holds its match, not its near miss", "[knowledge]") {
  std::vector<std::string> errors;
  const WaitEdges& t = wait_edges_for("");
  REQUIRE(t.rows.size() >= 3);
  for (const auto& r : t.rows) {
    CHECK(t.match(r.match));
    CHECK(!t.match(r.near_miss));
  }
}

TEST_CASE("wait edges: what each line names", "[knowledge]") {
  const WaitEdges& t = wait_edges_for("");
  // tests/data/real/vllm-ascend-10591-hccl-connect-timeout-transport-init/plog.txt
  auto init = t.match(
      "[ERROR] HCCL(80812,):2026-06-17-02:21:43.853.333 [transport_manager.cc:954] [86231][InitChannelStage]"
      "[RunFailed]Transport init error! createLink para:rank[7]-localUserrank[7]-localIpAddr[80.5.5.39/7], "
      "remoteRank[15]-remoteUserrank[15]-remoteIpAddr[80.5.5.67/7], machineType[0], linkMode[1], isUsedRdma[1], "
      "tag[AllGather_group_name_119]");
  REQUIRE(init);
  CHECK(init->row_id == "transport-init");
  CHECK((init->waiter.rank == "7" && init->waiter.ip == "80.5.5.39" && init->waiter.device == "7"));
  CHECK((init->target.rank == "15" && init->target.ip == "80.5.5.67" && init->target.device == "7"));
  // The EI0009 form (real-log-excerpts.md): dst_rank, remote_ip_addr, no device.
  auto dst = t.match("[rank1]: EI0009: [PID: 2225827] 2025-09-24-20:59:48.119.066 Transport init error. Reason: "
                     "[Create][DestLink]Create Dest error! createLink para:rank[1]-localUserrank[1]-localIpAddr"
                     "[172.16.0.114], dst_rank[0]-remoteUserrank[0]-remote_ip_addr[172.16.0.114]");
  REQUIRE(dst);
  CHECK((dst->waiter.rank == "1" && dst->target.rank == "0" && dst->target.device.empty()));
  auto lost = t.match("[ERROR] HCCL(3021,python3):2025-04-08-18:07:20.444.436 [heartbeat.cc:1090] [3188]Cluster "
                      "Exception Location[IP/ID]:[172.16.0.114/1], Arrival Time:[Tue Apr  8 18:07:20 2025], "
                      "Discoverer:[172.16.0.114/0], ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. "
                      "Process has exited, 2. Network Disconnected");
  REQUIRE(lost);
  CHECK((lost->waiter.device == "0" && lost->target.ip == "172.16.0.114" && lost->target.device == "1"));
  CHECK(lost->target.rank.empty());
  // Near misses: an error CQE at a location is no heartbeat wait; a notify wait on no known rank.
  CHECK(!t.match("Cluster Exception Location[IP/ID]:[172.16.0.114/1], Arrival Time:[x], Discoverer:[172.16.0.114/0], "
                 "ExceptionType:[Error cqe Occurred]"));
  CHECK(!t.match("The Notify register has not received the Notify record from remote rank [unknown]."));
  auto notify = t.match("has not received the Notify record from remote rank [3].base information");
  REQUIRE(notify);
  CHECK((notify->waiter.empty() && notify->target.rank == "3"));
}

TEST_CASE("wait edges: the loader names the row that breaks its samples or its groups", "[knowledge]") {
  const std::string head = "id\tpattern\tmatch\tnear_miss\tmeaning\n";
  auto errors_of = [&](const std::string& row) {
    std::vector<std::string> e;
    parse_wait_edges(head + row, "w.tsv", e);
    return e;
  };
  CHECK(errors_of("a\trank \\[(?P<target_rank>\\d+)\\]\trank [1]\trank [x]\twaits\n").empty());
  auto miss = errors_of("a\trank \\[(?P<target_rank>\\d+)\\]\trank [x]\trank [y]\twaits\n");
  REQUIRE(miss.size() == 1);
  CHECK(miss[0] == "w.tsv:2: the pattern misses its match sample");
  CHECK(errors_of("a\trank \\[(?P<target_rank>\\d+)\\]\trank [1]\trank [2]\twaits\n").at(0) ==
        "w.tsv:2: the pattern holds its near miss");
  CHECK(errors_of("a\trank \\[(?P<peer>\\d+)\\]\trank [1]\trank [x]\twaits\n").at(0) == "w.tsv:2: unknown group peer");
  CHECK(errors_of("a\trank \\[(?P<waiter_rank>\\d+)\\]\trank [1]\trank [x]\twaits\n").at(0) ==
        "w.tsv:2: the pattern names no target group");
}
