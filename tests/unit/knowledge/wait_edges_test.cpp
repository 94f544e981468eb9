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
    for (const auto* c : {&r.target_rank, &r.target_address, &r.target_device, &r.waiter_rank, &r.waiter_address,
                          &r.waiter_device})
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

TEST_CASE("wait edges: socket and link-table forms name the peer a rank could not connect to", "[knowledge]") {
  // The HCCL troubleshooting guide's EI0006 example (hicann/hcomm docs, 建链超时（EI0006）):
  // LINK_ERROR_INFO names both ends as device address(user rank).
  auto row = edge_of(
      "[ERROR] HCCL(17528,python3):2026-03-18-10:33:52.113.706 [hccl_socket_manager.cc:583] [18744]   |  "
      "192.0.2.199(0)   |  16666  |   192.0.3.198(1)   |  3234403008  |  client  | time out |   DISABLE  | LinkInfo");
  REQUIRE(row);
  CHECK(row->signature == "hccl/link-error-row");
  CHECK((row->target.rank == "0" && row->target.ip == "192.0.2.199" && row->target.device.empty()));
  CHECK((row->waiter.rank == "1" && row->waiter.ip == "192.0.3.198"));
  // The same guide's connect-timeout detector: server and device printed apart.
  auto detect = edge_of(
      "[ERROR] HCCL(17528,python3):2026-03-18-10:34:43.141.966 [detect_connect_anomalies.cc:132] [18744]This node "
      "(server 192.168.200.100, device ID 1) detects that srcRank (server 192.168.200.100, device ID 1) fails to "
      "connect to dstRank (server 192.168.200.100, device ID 0). Continue to analyze the fault based on the logs of "
      "srcRank and dstRank.");
  REQUIRE(detect);
  CHECK((detect->target.ip == "192.168.200.100" && detect->target.device == "0" && detect->target.rank.empty()));
  CHECK((detect->waiter.ip == "192.168.200.100" && detect->waiter.device == "1"));
  // A destination with several devices names the server only.
  auto several = edge_of("This node (server 10.0.0.1, device ID 1) detects that srcRank (server 10.0.0.1, device ID 1) "
                         "fails to connect to dstRank (server 10.0.0.2, device ID 0,1).");
  REQUIRE(several);
  CHECK((several->target.ip == "10.0.0.2" && several->target.device.empty()));
  // An earlier version of MindSpore's CANN error guide (mindspore-ai/docs cann_error_cases.md,
  // socket建链超时): the exchanger table after AllClientSocketEstab; a NO row is a peer that
  // never connected.
  auto no = edge_of("[ERROR] HCCL(130250,python):2021-10-14-00:50:50.787.543 [exchanger_network.cc:782][130250][138166]"
                    "   |         0  |         0  |   client   |     NO     |");
  REQUIRE(no);
  CHECK((no->signature == "hccl/link-table-no" && no->target.rank == "0" && no->target.device == "0" && no->waiter.empty()));
  // EI0006 of newer CANN: srcRank[ip/dev] connect destRank[ip/dev] fail.
  auto connect = edge_of("        srcRank[192.168.0.125/0] connect destRank[192.168.0.192/0] fail.");
  REQUIRE(connect);
  CHECK((connect->target.ip == "192.168.0.192" && connect->target.device == "0"));
  CHECK((connect->waiter.ip == "192.168.0.125" && connect->waiter.device == "0"));
  // Near misses: the socket timeout itself names only this rank; a YES row; the table header;
  // the EI0006 reason that names no one.
  CHECK(!edge_of("[ERROR] HCCL(130250,python):2021-10-14-00:50:50.787.375 [exchanger_network.cc:232][130250][138166]"
                 "[Wait][AllClientSocketEstab]errNo[0x000000000500000b] client : device[1] rank[1] get socket timeout, "
                 "total[4] remain[3]"));
  CHECK(!edge_of("[ERROR] HCCL(130250,python):2021-10-14-00:50:50.787.588 [exchanger_network.cc:782][130250][138166]"
                 "   |         3  |         3  |   client   |     YES     |"));
  CHECK(!edge_of("[ERROR] HCCL(17528,python3):2026-03-18-10:33:52.113.653 [hccl_socket_manager.cc:626] [18744]   |  "
                 "dest_ip(user_rank)  |   dest_port   |  src_ip(user_rank)   |   src_port   |   MyRole   |   Status   |"
                 "    TlsStatus   |"));
  CHECK(!edge_of("[rank1]: EI0006: [PID: 1292363] 2025-04-08-18:07:20.444.436 Getting socket times out. Reason: Remote "
                 "Rank did not send the data in time. Please check the reason for the rank being stuck"));
}

TEST_CASE("wait edges: the loader names a bad row", "[knowledge]") {
  const std::string head =
      "signature\ttarget_rank\ttarget_address\ttarget_device\twaiter_rank\twaiter_address\twaiter_device\tmeaning\n";
  auto errors_of = [&](const std::string& row) {
    std::vector<std::string> e;
    parse_wait_edges(head + row, "w.tsv", e);
    return e;
  };
  CHECK(errors_of("a/b\tremote_rank\t-\t-\t-\t-\t-\twaits\n").empty());
  CHECK(errors_of("a/b\t-\t-\tdev\tlocal_rank\t-\t-\twaits\n").empty());  // a device of its own server
  CHECK(errors_of("a/b\t-\t-\t-\t-\t-\t-\tits own device's fault\n").empty());  // a root candidate
  CHECK(errors_of("a/b\tremote rank\t-\t-\t-\t-\t-\twaits\n").at(0) == "w.tsv:2: 'remote rank' is no capture name (or -)");
  CHECK(errors_of("a/b\tr\t-\t-\t-\t-\t-\tw\na/b\tr\t-\t-\t-\t-\t-\tw\n").at(0) == "w.tsv:3: duplicate signature a/b");
  CHECK(errors_of("a/b\tr\t-\t-\t-\tw\n").at(0) == "w.tsv:2: 6 fields, want 8");
}

TEST_CASE("wait edges: ascend-fd's system-test lines (P2P, AI CPU notify wait, the old link table, CQE)", "[knowledge]") {
  // tests/data/ascend-fd-st/ (Ascend/mind-cluster, Apache-2.0): a P2P wait names a device of its
  // own server by physical id.
  auto p2p = edge_of("[ERROR] HCCL(114654,python3):2025-06-19-09:28:35.062.066 [p2p_mgmt.cc:305] [115867][Wait]"
                     "[P2PConnected]connected p2p timeout, timeout:130 s. local logicDevid:2, remote physic id:1.");
  REQUIRE(p2p);
  CHECK((p2p->signature == "hccl/p2p-wait" && p2p->target.device == "1" && p2p->target.rank.empty() &&
         p2p->target.ip.empty() && p2p->waiter.device == "2"));
  auto notify = edge_of("[ERROR] HCCL(5375,aicpu_scheduler):2025-08-06-23:09:01.834.048 [aicpu_communicator.cc:3083] "
                        "[5792][TaskException]base information is streamId:149, sqid:153, head:1488, tail:136, type:"
                        "NOTIFY WAIT, localRank:1, remoteRank:0, taskId:26064, notifyId:760, addr1High:0x0.");
  REQUIRE(notify);
  CHECK((notify->target.rank == "0" && notify->waiter.rank == "1"));
  // HCCL's "no rank" and an SDMA task (its own transfer, no wait) name no one.
  CHECK(!edge_of("[ERROR] HCCL(5375,aicpu_scheduler):2025-08-06-23:09:01.834.041 [aicpu_communicator.cc:3083] "
                 "[5792][TaskException]base information is streamId:149, sqid:153, head:1488, tail:136, type:NOTIFY "
                 "WAIT, localRank:1, remoteRank:4294967295, taskId:26064, notifyId:760, addr1High:0x0."));
  CHECK(!edge_of("[ERROR] HCCL(3496,aicpu_scheduler):2025-08-06-22:39:11.764.416 [aicpu_communicator.cc:3750] [3896]"
                 "[TaskException][AICPU]base information is streamId:149, sqid:153, head:1487, tail:127, type:SDMA, "
                 "localRank:1, remoteRank:2, taskId:26063, notifyId:0."));
  auto old_table = edge_of("[ERROR] HCCL(59420,python3):2025-01-24-11:24:07.908.572 [comm_base.cc:1018][107626]   |  "
                           "124.0.0.11(1)   |   124.0.0.21(0)   |  server  | no connect |   ");
  REQUIRE(old_table);
  CHECK((old_table->target.ip == "124.0.0.11" && old_table->target.rank == "1" && old_table->waiter.rank == "0"));
  // An error CQE is its own device's fault: a row without a target, no edge.
  const WaitEdgeRow* cqe = wait_edges_for("").of_signature("fd/hccl-029");
  REQUIRE(cqe);
  CHECK(cqe->own_fault());
  CHECK(!edge_of("[ERROR] HCCL(12337,python):2023-07-04-22:15:59.773.698 [heartbeat.cc:551][12337][283707][Heartbeat]"
                 "cqe err status[12], time:[2023-07-04 22:15:59.099518], ip:[192.1.95.102]"));
}
