// knowledge/wait-edges.tsv: which signature hits name the rank they wait on, on verbatim lines
// (tests/data/real/) through the signatures' own patterns, with near misses; every row names a
// signature that exists and captures its pattern has.
#include <catch2/catch.hpp>
#include <re2/re2.h>

#include <string>
#include <vector>

#include "knowledge/knowledge.h"
#include "knowledge/wait_edges.h"

using namespace triage;

namespace {

const Signature* signature(std::string_view id) {
  for (const auto& s : knowledge_for("").signatures)
    if (s.id == id) return &s;
  return nullptr;
}

// The edge a line names through the rows' signatures, as the plog reader's hits would.
std::optional<WaitEdgeMatch> edge_of(std::string_view line) {
  const WaitEdges& t = wait_edges_for("");
  for (const auto& row : t.rows) {
    const Signature* s = signature(row.signature);
    if (!s || !s->re) continue;
    const RE2& re = *s->re;
    std::vector<re2::StringPiece> g(static_cast<size_t>(re.NumberOfCapturingGroups()) + 1);
    if (!re.Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::UNANCHORED, g.data(),
                  static_cast<int>(g.size())))
      continue;
    Captures caps;
    for (const auto& [name, i] : re.NamedCapturingGroups())
      if (g[static_cast<size_t>(i)].data()) caps.emplace_back(name, std::string(g[static_cast<size_t>(i)]));
    return t.edge(row.signature, caps);
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("wait edges: each row names a signature and captures it has", "[knowledge]") {
  const WaitEdges& t = wait_edges_for("");
  REQUIRE(t.rows.size() >= 3);
  for (const auto& r : t.rows) {
    INFO(r.signature);
    const Signature* s = signature(r.signature);
    REQUIRE(s);
    REQUIRE(s->re);
    const auto& groups = s->re->NamedCapturingGroups();
    for (const auto* c : {&r.target_rank, &r.target_address, &r.waiter_rank, &r.waiter_address})
      if (!c->empty()) CHECK(groups.count(*c) == 1);
  }
}

TEST_CASE("wait edges: what each real line names, and its near misses", "[knowledge]") {
  // tests/data/real/vllm-ascend-10591-hccl-connect-timeout-transport-init/plog.txt (260 bytes
  // to the remote side: past an excerpt's 240).
  auto init = edge_of(
      "[ERROR] HCCL(80812,):2026-06-17-02:21:43.853.333 [transport_manager.cc:954] [86231][InitChannelStage]"
      "[RunFailed]Transport init error! createLink para:rank[7]-localUserrank[7]-localIpAddr[80.5.5.39/7], "
      "remoteRank[15]-remoteUserrank[15]-remoteIpAddr[80.5.5.67/7], machineType[0], linkMode[1], isUsedRdma[1], "
      "tag[AllGather_group_name_119]");
  REQUIRE(init);
  CHECK((init->waiter.rank == "7" && init->waiter.ip == "80.5.5.39" && init->waiter.device == "7"));
  CHECK((init->target.rank == "15" && init->target.ip == "80.5.5.67" && init->target.device == "7"));
  // The EI0009 form (real-log-excerpts.md): dst_rank, remote_ip_addr, no device.
  auto dst = edge_of("[rank1]: EI0009: [PID: 2225827] 2025-09-24-20:59:48.119.066 Transport init error. Reason: "
                     "[Create][DestLink]Create Dest error! createLink para:rank[1]-localUserrank[1]-localIpAddr"
                     "[172.16.0.114], dst_rank[0]-remoteUserrank[0]-remote_ip_addr[172.16.0.114]");
  REQUIRE(dst);
  CHECK((dst->waiter.rank == "1" && dst->target.rank == "0" && dst->target.device.empty()));
  auto lost = edge_of("[ERROR] HCCL(3021,python3):2025-04-08-18:07:20.444.436 [heartbeat.cc:1090] [3188]Cluster "
                      "Exception Location[IP/ID]:[172.16.0.114/1], Arrival Time:[Tue Apr  8 18:07:20 2025], "
                      "Discoverer:[172.16.0.114/0], ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. "
                      "Process has exited, 2. Network Disconnected");
  REQUIRE(lost);
  CHECK((lost->waiter.device == "0" && lost->target.ip == "172.16.0.114" && lost->target.device == "1"));
  // tests/data/real/mindspore-docs-cann-errors-ei0002-heartbeat-lost/output.txt
  auto notify = edge_of("Ascend Error Message:EI0002: The wait execution of the Notify register times out. Reason: The "
                        "Notify register has not received the Notify record from remote rank [0].base information: "
                        "[streamID:[14], taskID[4], taskType[Notify Wait]");
  REQUIRE(notify);
  CHECK((notify->waiter.empty() && notify->target.rank == "0"));
  // Near misses: a notify wait on rank [unknown], a masked server address, a heartbeat receive,
  // a device-side timeout that names no peer.
  CHECK(!edge_of("EI0002: [PID: 7277] 2024-11-28-11:59:30.645.648 The wait execution of the Notify register times "
                 "out. Reason: The Notify register has not received the Notify record from remote rank [unknown]."));
  CHECK(!edge_of("        serverId[10.*.*.*], deviceId[0], Heartbeat Lost Occurred, Possible Reason: 1. Process has "
                 "exited, 2. Network Disconnected"));
  CHECK(!edge_of("[DEBUG] HCCL(14376,):2026-06-24-06:50:22.648.031 [heartbeat.cc:1534] [18857]rank[80.5.5.69/0] Try "
                 "to Recv from rank[80.5.5.75/0]"));
  CHECK(!edge_of("[ERROR] RUNTIME(62613,python3):2026-03-02-14:33:45.818.000 [device_error_proc.cc:1389]62654 "
                 "ProcessStarsHcclFftsPlusTimeoutErrorInfo:The error from device(chipId:0, dieId:0), serial number is "
                 "9, hccl fftsplus task timeout occurred during task execution, stream_id:5, sq_id:5, task_id:2212, "
                 "stuck notify num:1, timeout:1836."));
}

TEST_CASE("wait edges: the loader names a bad row", "[knowledge]") {
  const std::string head = "signature\ttarget_rank\ttarget_address\twaiter_rank\twaiter_address\tmeaning\n";
  auto errors_of = [&](const std::string& row) {
    std::vector<std::string> e;
    parse_wait_edges(head + row, "w.tsv", e);
    return e;
  };
  CHECK(errors_of("a/b\tremote_rank\t-\t-\t-\twaits\n").empty());
  CHECK(errors_of("a/b\t-\t-\tlocal_rank\t-\twaits\n").at(0) == "w.tsv:2: a row names the target's rank or address capture");
  CHECK(errors_of("a/b\tremote rank\t-\t-\t-\twaits\n").at(0) == "w.tsv:2: 'remote rank' is no capture name (or -)");
  CHECK(errors_of("a/b\tr\t-\t-\t-\tw\na/b\tr\t-\t-\t-\tw\n").at(0) == "w.tsv:3: duplicate signature a/b");
}
