// collective/* and device-access/* on verbatim corpus lines (load_evidence + correlate) and on
// in-memory facts: each class, its near misses, and the one line that flips the verdict.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "correlator/analyses/collective.h"
#include "correlator/correlate.h"
#include "correlator/analyses/device_access.h"
#include "ingest/load.h"

#include "analysis_test_support.h"
#include "bundle_test_util.h"

using namespace triage;

namespace {

// A file at `name` holding the given lines, analysed end to end.
Report analyze_file(const std::string& name, const std::vector<std::string>& lines) {
  testing::TempDir dir;
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  testing::write_file(dir / name, text);
  auto loaded = load_evidence({dir.path()}, AnalyzeOptions{});
  return correlate(loaded.evidence, AnalyzeOptions{});
}

Report analyze_plog(const std::vector<std::string>& lines) {
  return analyze_file("plog/plog-164818_20250827201017000.log", lines);
}

Report analyze_job_output(const std::vector<std::string>& lines) { return analyze_file("output.txt", lines); }

const Finding* find(const Report& r, std::string_view id) { return testing::find_finding(r.findings, id); }

std::string top(const Report& r) { return r.verdict.ranked.empty() ? "" : r.verdict.ranked.front().id; }

bool names_launch_blocking(const Finding& f) {
  for (const auto& n : f.next_checks)
    if (n.find("ASCEND_LAUNCH_BLOCKING") != std::string::npos) return true;
  return false;
}

// The message is verbatim (tests/data/real/vllm-ascend-2618-ranktable-devid-mismatch/plog.txt);
// the paste's time `20:10:17:012.780` (a colon before the milliseconds) is written in the plog
// form here: the plog reader does not take the pasted form (left to the job-output reader).
const std::string kDevIdMismatch =
    "[ERROR] HCCL(164818,python):2025-08-27-20:10:17.012.780 [topoinfo_ranktableConcise.cc:169][166173]"
    "[Parse][ClusterInfo]ranktable config devId[1], but local devId[3]";
const std::string kDevIdTrace =
    "[ERROR] HCCL(164818,python):2025-08-27-20:10:17.012.785 [topoinfo_ranktableConcise.cc:51][166173]"
    "[Init]call trace: hcclRet - >7";
// Verbatim (tests/data/real/vllm-ascend-10591-hccl-connect-timeout-transport-init/plog.txt).
const std::string kTransportInit =
    "[ERROR] HCCL(80812,):2026-06-17-02:21:43.853.333 [transport_manager.cc:954] [86231][InitChannelStage]"
    "[RunFailed]Transport init error! createLink para:rank[7]-localUserrank[7]-localIpAddr[80.5.5.39/7], "
    "remoteRank[15]-remoteUserrank[15]-remoteIpAddr[80.5.5.67/7], machineType[0], linkMode[1], isUsedRdma[1], "
    "tag[AllGather_group_name_119]";
// Verbatim (tests/data/real/vllm-ascend-9447-hccp-ra-socket-batch-close/plog.txt): a close, at teardown.
const std::string kRaSocketClose =
    "[ERROR] HCCL(106335,):2026-05-21-21:41:12.783.481 [adapter_hccp.cc:1238] [106335][BatchClose][RaSocket]"
    "errNo[0x000000000500000b] ra socket batch close fail. return[228202], num[1]";
const std::string kRaHdcClose =
    "[ERROR] HCCP(106335,):2026-05-21-21:41:12.783.479 [ra_hdc_socket.c:122]tid:106335,RaHdcSocketBatchClose : "
    "[batch_close][ra_hdc_socket]ra hdc message process failed, ret(-19) phyId(0).";
// Verbatim (tests/fixtures/reference/real-log-excerpts.md): HCCP has no network interface, at set-up.
const std::string kRaIfNum =
    "[ERROR] HCCL(60570,):2025-12-04-14:46:07.911.356 [adapter_hccp.cc:1621] [60570][Get][IfNum]"
    "errNo[0x000000000500000b] ra get if num fail. ret[128303], num[0]";
// Verbatim (tests/data/real/paddlex-4532-atc-hdc-init-failed-in-container/console.txt).
const std::string kHdcInit =
    "[ERROR] DRV(2059,atc.bin):2025-09-02-21:07:20.698.597 [hdc_core.c:396][hdc] [hdcPcieInit 396] HDC init "
    "failed, driver may not load.";

}  // namespace

TEST_CASE("collective: a rank table device mismatch is a rank-table error, collective leads",
          "[collective]") {
  Report r = analyze_plog({kDevIdMismatch, kDevIdTrace});
  const Finding* f = find(r, "collective/rank-table");
  REQUIRE(f);
  CHECK(*f->find_value("config_device") == "1");
  CHECK(*f->find_value("local_device") == "3");
  CHECK(f->evidence.at(0).line == 1);
  CHECK_FALSE(names_launch_blocking(*f));
  CHECK(top(r) == "collective-communication");
}

TEST_CASE("collective: near miss, the call trace alone is no rank-table finding", "[collective]") {
  Report r = analyze_plog({kDevIdTrace});
  CHECK_FALSE(find(r, "collective/rank-table"));
  CHECK(top(r) != "collective-communication");
}

TEST_CASE("collective: transport init names the remote rank and IP; ra socket is link set-up",
          "[collective]") {
  Report r = analyze_plog({kTransportInit});
  const Finding* f = find(r, "collective/link-setup");
  REQUIRE(f);
  CHECK(*f->find_value("remote_rank") == "15");
  CHECK(*f->find_value("remote_ip") == "80.5.5.67/7");
  CHECK(f->observed.find("HCCL_CONNECT_TIMEOUT") != std::string::npos);
  CHECK_FALSE(names_launch_blocking(*f));
  Report r2 = analyze_plog({kRaIfNum});
  CHECK(find(r2, "collective/link-setup"));
  CHECK(top(r2) == "collective-communication");
}

TEST_CASE("collective: sockets that fail to close are teardown, not link set-up", "[collective]") {
  Report r = analyze_plog({kRaHdcClose, kRaSocketClose});
  const Finding* f = find(r, "collective/socket-close");
  REQUIRE(f);
  CHECK(f->severity == Severity::warning);
  CHECK(*f->find_value("hdc_ret") == "-19");
  CHECK(f->evidence.size() == 2);
  CHECK_FALSE(find(r, "collective/link-setup"));
  // The close follows a failure these lines do not show: no cause is named from them.
  CHECK(top(r) == "insufficient-evidence");
  // Perturbation: the same paste with a set-up failure before the close names the class.
  Report r2 = analyze_plog({kRaIfNum, kRaHdcClose, kRaSocketClose});
  CHECK(find(r2, "collective/link-setup"));
  CHECK(find(r2, "collective/socket-close"));
  CHECK(top(r2) == "collective-communication");
}

TEST_CASE("collective: the HCCL heartbeat names a lost peer, not a device fault", "[collective]") {
  // The form HCCL's heartbeat prints (Heartbeat::MakeErrMsg): the peer is the "Location".
  const std::string peer =
      "[ERROR] HCCL(3021,python3):2025-04-08-18:07:20.444.436 [heartbeat.cc:1090] [3188]Cluster Exception "
      "Location[IP/ID]:[172.16.0.114/1], Arrival Time:[Tue Apr  8 18:07:20 2025], Discoverer:[172.16.0.114/0], "
      "ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, 2. Network Disconnected";
  Report r = analyze_plog({peer});
  const Finding* f = find(r, "collective/peer-lost");
  REQUIRE(f);
  CHECK(*f->find_value("peer") == "172.16.0.114/1");
  CHECK(*f->find_value("lost_peer") == "this host");  // the discoverer's own server
  CHECK_FALSE(find(r, "device-exception/heartbeat-lost"));
  CHECK(top(r) == "collective-communication");
  // A peer on another server; one line of each: the weaker claim, another host.
  std::string other = peer;
  other.replace(other.find("Discoverer:[172.16.0.114/0]"), 27, "Discoverer:[172.16.0.115/0]");
  CHECK(*find(analyze_plog({other}), "collective/peer-lost")->find_value("lost_peer") == "another host");
  CHECK(*find(analyze_plog({peer, other}), "collective/peer-lost")->find_value("lost_peer") == "another host");
  // The EI0002 form names no discoverer (mindspore-docs-cann-errors-ei0002-heartbeat-lost).
  Report masked = analyze_plog({"        serverId[10.*.*.*], deviceId[0], Heartbeat Lost Occurred, Possible Reason: "
                                "1. Process has exited, 2. Network Disconnected"});
  if (const Finding* m = find(masked, "collective/peer-lost")) CHECK(*m->find_value("lost_peer") == "unknown");
  // Perturbation: the runtime's own device heartbeat loss is this host's device.
  Report r2 = analyze_plog({"[ERROR] RUNTIME(1,python3):2025-01-01-00:00:00.000.000 [device_monitor.cc:100]1 "
                            "ProcessHeartbeat:Device[1] lost heartbeat."});
  CHECK(find(r2, "device-exception/heartbeat-lost"));
  CHECK_FALSE(find(r2, "collective/peer-lost"));
  CHECK(top(r2) == "device-hardware");
}

TEST_CASE("collective: a peer lost on the same server does not contradict this host's device fault", "[collective]") {
  // samples/fleet-4node's node3 in one paste: device 1 faults, device 0 reports device 1 of its
  // own server lost. The device fault leads; a peer on another server still contradicts it.
  const std::string fault =
      "[ERROR] RUNTIME(75086,python3):2026-03-02-14:03:10.418.000 [device_error_proc.cc:1409]75127 "
      "ProcessStarsCoreErrorInfo:The error from device(chipId:1, dieId:0), serial number is 67, there is an aicore "
      "error exception, core id is 18, error code = 0";
  auto lost = [](const std::string& discoverer) {
    return "[ERROR] HCCL(78800,python3):2026-03-02-14:03:41.618.000 [heartbeat.cc:1090] [78987]Cluster Exception "
           "Location[IP/ID]:[10.20.7.14/1], Arrival Time:[Mon Mar  2 14:03:41 2026], Discoverer:[" + discoverer +
           "], ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, 2. Network Disconnected";
  };
  auto device_hardware = [](const Report& r) {
    for (const auto& h : r.verdict.ranked)
      if (h.id == "device-hardware") return &h;
    return static_cast<const Hypothesis*>(nullptr);
  };
  Report same = analyze_plog({fault, lost("10.20.7.14/0")});
  REQUIRE(device_hardware(same));
  CHECK(device_hardware(same)->contradicting.empty());
  Report other = analyze_plog({fault, lost("10.20.7.11/0")});
  REQUIRE(device_hardware(other));
  CHECK(device_hardware(other)->contradicting.size() == 1);
  CHECK(device_hardware(same)->score > device_hardware(other)->score);
}

TEST_CASE("collective: a wait timeout shows the printed value and the job's HCCL variables",
          "[collective]") {
  BundleFacts b;
  SignatureHit h;
  h.id = "hccl/wait-timeout-value";
  h.captures = {{"default", "(default)"}, {"timeout", "30"}, {"unit", "min"}};
  h.evidence = make_evidence("plog-1.log", 7, 0, "hccl fftsplus task timeout");
  b.logs.signature_hits.push_back(h);
  ProcessInfo p;
  p.pid = 52416;
  p.has_environ = true;
  p.environ = {{"HCCL_EXEC_TIMEOUT", "1800"}};
  b.processes.by_pid[52416] = p;
  auto out = testing::run_analysis(analyze_collective, b);
  const Finding* f = testing::find_finding(out, "collective/wait-timeout");
  REQUIRE(f);
  CHECK(*f->find_value("timeout_seen") == "30min (default)");
  CHECK(*f->find_value("hccl_exec_timeout") == "pid 52416: 1800");
  CHECK(f->observed.find("HCCL_CONNECT_TIMEOUT: unset (default)") != std::string::npos);
  CHECK_FALSE(names_launch_blocking(*f));
  // Without a collected environment the finding says the values are unknown.
  b.processes.by_pid.clear();
  out = testing::run_analysis(analyze_collective, b);
  REQUIRE(testing::find_finding(out, "collective/wait-timeout"));
  CHECK(testing::find_finding(out, "collective/wait-timeout")->observed.find("not collected") != std::string::npos);
}

TEST_CASE("collective: CANN message codes pick the class", "[collective]") {
  struct Case {
    const char* code;
    const char* id;
  };
  for (auto c : {Case{"EI0006", "collective/link-setup"}, Case{"EI0009", "collective/link-setup"},
                 Case{"EI0014", "collective/rank-table"}, Case{"EJ0001", "collective/device-held"},
                 Case{"EJ0002", "collective/peer-lost"}, Case{"EI0012", "collective/transport-error"},
                 Case{"EI0005", "collective/mismatch"}, Case{"EI0002", "collective/wait-timeout"}}) {
    BundleFacts b;
    ErrorReportBlock r;
    r.code = c.code;
    r.evidence = make_evidence("output.txt", 3, 0, c.code);
    b.python.error_reports.push_back(r);
    auto out = testing::run_analysis(analyze_collective, b);
    INFO(c.code);
    REQUIRE(out.size() == 1);
    CHECK(out[0].id == c.id);
    CHECK_FALSE(out[0].does_not_prove.empty());
  }
  BundleFacts other;  // an operator's code is no collective class
  ErrorReportBlock r;
  r.code = "EZ9999";
  r.message = "Kernel task happen error, retCode=0x26";
  other.python.error_reports.push_back(r);
  CHECK(testing::run_analysis(analyze_collective, other).empty());
}

TEST_CASE("collective: report text in job output is matched with the same signatures", "[collective]") {
  BundleFacts b;
  ErrorReportBlock r;
  r.code = "EE9999";
  // Verbatim message (tests/data/real/ascend-pytorch-166-hccl-group-sdma-507049-shared-npu).
  r.message = "The error from device(chipId:0, dieId:0), serial number is 16. there is a fftsplus sdma error, "
              "sdma channel is 4, sdmaState=0x6, sdmaTslotid=0x6, sdmaCxtid=0x1, sdmaThreadid=0x0, irqStatus=0x0, "
              "cqeStatus=0x70000.";
  r.evidence = make_evidence("output.txt", 4, 0, "EE9999[PID: 93858]");
  b.python.error_reports.push_back(r);
  auto out = testing::run_analysis(analyze_collective, b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "collective/transport-error");
}

TEST_CASE("device-access: HDC init failure is a process that cannot reach the device", "[device_access]") {
  Report r = analyze_plog({kHdcInit});
  const Finding* f = find(r, "device-access/process-cannot-open");
  REQUIRE(f);
  CHECK(f->evidence.at(0).line == 1);
  CHECK(top(r) == "device-access");
  Report near = analyze_plog({"[INFO] DRV(2059,atc.bin):2025-09-02-21:07:20.698.597 [hdc_core.c:396][hdc] "
                              "[hdcPcieInit 396] HDC init success."});
  CHECK_FALSE(find(near, "device-access/process-cannot-open"));
}

TEST_CASE("device-access: npu_presence no_npu comes first; npu_visible says nothing", "[device_access]") {
  BundleFacts b;
  b.manifest.has_manifest_json = true;
  NpuPresence p;
  p.state = "no_npu";
  p.ascend_modules_loaded = 0, p.device_nodes = 0, p.npu_pci_devices = 0, p.npu_processes = 0;
  p.driver_installed = false;
  b.manifest.npu_presence = p;
  auto out = testing::run_analysis(analyze_device_access, b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "device-access/no-npu");
  CHECK(out[0].severity == Severity::critical);
  b.manifest.npu_presence->state = "npu_visible";
  CHECK(testing::run_analysis(analyze_device_access, b).empty());
  b.manifest.npu_presence->state = "devices_not_visible";
  out = testing::run_analysis(analyze_device_access, b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "device-access/devices-not-visible");
}

TEST_CASE("device-access: without npu_presence the state is derived from the bundle's files",
          "[device_access]") {
  BundleFacts b;
  b.manifest.has_manifest_json = true;
  b.modules.have_pci_tsv = true, b.modules.have_sysfs = true;
  b.modules.device_nodes = std::vector<DeviceNode>{};
  auto out = testing::run_analysis(analyze_device_access, b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "device-access/no-npu");
  CHECK(*out[0].find_value("state") == "no_npu");
  // One NPU PCI function: the host has an NPU that this view cannot see.
  PciFunction npu;
  npu.vendor = "19e5", npu.device = "d802";
  b.modules.pci.push_back(npu);
  out = testing::run_analysis(analyze_device_access, b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "device-access/devices-not-visible");
  // A device node: visible, nothing to say. Without the manager/HDC nodes, that is its own finding.
  DeviceNode n;
  n.path = "/dev/davinci0";
  b.modules.device_nodes->push_back(n);
  out = testing::run_analysis(analyze_device_access, b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "device-access/support-nodes-missing");
  for (auto s : {"/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc"}) {
    DeviceNode m;
    m.path = s;
    b.modules.device_nodes->push_back(m);
  }
  CHECK(testing::run_analysis(analyze_device_access, b).empty());
}

TEST_CASE("device-access: a DCMI failure inside a container supports device access", "[device_access]") {
  BundleFacts b;
  NpuSmiInfo i;
  i.failure = "dcmi module initialize failed. ret is -8005";
  i.failure_code = -8005;
  i.evidence = make_evidence("ascend/npu-smi-info.txt", 1, 0, i.failure);
  b.devices.info = i;
  b.manifest.in_container = true;
  auto out = testing::run_analysis(analyze_device_access, b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "device-access/dcmi-failure");
  CHECK(*out[0].find_value("dcmi_code") == "-8005");
  CHECK(*out[0].find_value("in_container") == "yes");
}

namespace {

// A bundle directory with the given files (path, text), analysed end to end.
Report analyze_files(const std::vector<std::pair<std::string, std::string>>& files) {
  testing::TempDir dir;
  for (const auto& [path, text] : files) testing::write_file(dir / path, text);
  auto loaded = load_evidence({dir.path()}, AnalyzeOptions{});
  return correlate(loaded.evidence, AnalyzeOptions{});
}

const std::string kRankTable = R"({
  "version": "1.0", "server_count": "1", "status": "completed",
  "server_list": [{"server_id": "10.0.0.10", "device": [
    {"device_id": "0", "device_ip": "192.168.10.10", "rank_id": "0"},
    {"device_id": "1", "device_ip": "192.168.10.11", "rank_id": "1"}]}]
})";

}  // namespace

TEST_CASE("collective: hccn_tool answers become link facts; a port down is link-down", "[collective]") {
  // The healthy answers are the stub's (tests/collector/stubs/hccn_tool).
  Report up = analyze_files({{"ascend/hccn-link-0.txt", "link status: UP\n"},
                             {"ascend/hccn-net_health-0.txt", "net health status: Success\n"},
                             {"ascend/hccn-link_stat-0.txt",
                              "[device 0]current time        : Sat Jun 13 17:09:10 2026\n"
                              "[device 0]link up count       : 1\n[device 0]link change records :\n"
                              "[device 0]    Sat Jun 13 00:01:12 2026    LINK UP\n"}});
  CHECK_FALSE(find(up, "collective/link-down"));
  // Perturbation: the newest link change is LINK DOWN. hccn_tool prints the records newest
  // first (real-log-excerpts.md quotes UP 16:32:12 above DOWN 16:32:10), so it is the first.
  Report down = analyze_files({{"ascend/hccn-link-0.txt", "link status: UP\n"},
                               {"ascend/hccn-link_stat-0.txt",
                                "[device 0]link up count       : 1\n[device 0]link change records :\n"
                                "[device 0]    Sat Jun 13 00:05:12 2026    LINK DOWN\n"
                                "[devid 0]    Sat Jun 13 00:01:12 2026    LINK UP\n"}});
  const Finding* f = find(down, "collective/link-down");
  REQUIRE(f);
  CHECK(f->severity == Severity::warning);
  CHECK(f->evidence.at(0).line == 3);
  CHECK(*f->find_value("device") == "0");
  // The real order: a DOWN that an UP two seconds later healed is not the last change.
  Report healed = analyze_files({{"ascend/hccn-link-0.txt", "link status: UP\n"},
                                 {"ascend/hccn-link_stat-0.txt",
                                  "[device 0]link change records :\n"
                                  "[device 0]    Tue Jun  6 16:32:12 2023    LINK UP\n"
                                  "[device 0]    Tue Jun  6 16:32:10 2023    LINK DOWN\n"
                                  "[device 0]    Tue Jun  6 16:31:55 2023    LINK UP\n"}});
  CHECK_FALSE(find(healed, "collective/link-down"));
  // Records in time order (a tool that printed them oldest first): the time decides.
  Report ascending = analyze_files({{"ascend/hccn-link-0.txt", "link status: UP\n"},
                                    {"ascend/hccn-link_stat-0.txt",
                                     "[device 0]link change records :\n"
                                     "[device 0]    Tue Jun  6 16:31:55 2023    LINK UP\n"
                                     "[device 0]    Tue Jun  6 16:32:10 2023    LINK DOWN\n"}});
  const Finding* g = find(ascending, "collective/link-down");
  REQUIRE(g);
  CHECK(g->evidence.at(0).line == 3);
}

TEST_CASE("collective: a rank table without this host's device IPs is a rank-table error", "[collective]") {
  auto files = std::vector<std::pair<std::string, std::string>>{
      {"ascend/hccn-ip-0.txt", "ipaddr:192.168.10.10\nnetmask:255.255.255.0\n"},
      {"processes/4242/rank-table.json", kRankTable}};
  Report ok = analyze_files(files);
  CHECK_FALSE(find(ok, "collective/rank-table"));
  // Perturbation: the host's device has another address than every device_ip of the table.
  files[0].second = "ipaddr:192.168.20.10\nnetmask:255.255.255.0\n";
  Report bad = analyze_files(files);
  const Finding* f = find(bad, "collective/rank-table");
  REQUIRE(f);
  CHECK(*f->find_value("host_device_ips") == "192.168.20.10");
  CHECK(*f->find_value("rank_table_pid") == "4242");
  CHECK(f->evidence.at(0).line == 4);
}

TEST_CASE("collective: a rank table device without device_ip; broken JSON is malformed, not a crash",
          "[collective]") {
  std::string no_ip = kRankTable;
  const std::string ip_field = "\"device_ip\": \"192.168.10.11\", ";
  no_ip.replace(no_ip.find(ip_field), ip_field.size(), "");
  Report r = analyze_files({{"processes/7/rank-table.json", no_ip}});
  const Finding* f = find(r, "collective/rank-table");
  REQUIRE(f);
  CHECK(*f->find_value("device_ip_missing") == "pid 7 server 10.0.0.10 device 1");
  Report broken = analyze_files({{"processes/7/rank-table.json", "{\"server_list\": [ {\"device\": "}});
  CHECK_FALSE(find(broken, "collective/rank-table"));
}

TEST_CASE("collective: py-spy threads inside a collective", "[collective]") {
  Report r = analyze_files({{"processes/52416/py-spy-dump.txt",
                             "Process 52416: python train.py\nPython v3.10.12 (/usr/bin/python3.10)\n\n"
                             "Thread 52416 (idle): \"MainThread\"\n"
                             "    all_reduce (torch/distributed/distributed_c10d.py:2050)\n"
                             "    step (train.py:88)\n"}});
  const Finding* f = find(r, "collective/stack-in-collective");
  REQUIRE(f);
  CHECK(f->evidence.at(0).line == 4);
  CHECK(f->find_value("stack")->find("all_reduce") != std::string::npos);
  Report idle = analyze_files({{"processes/52416/py-spy-dump.txt",
                                "Thread 52416 (idle): \"MainThread\"\n    step (train.py:88)\n"}});
  CHECK_FALSE(find(idle, "collective/stack-in-collective"));
}

namespace {

// Verbatim (tests/data/real/vllm-ascend-167-c10d-store-clients-joined/output.txt).
const std::vector<std::string> kStoreTimeout = {
    "  File \"/work/.env/py310/lib/python3.10/site-packages/torch/distributed/rendezvous.py\", line 189, in "
    "_create_c10d_store",
    "    return TCPStore(",
    "torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 1/8 clients joined.",
};
// Verbatim (tests/data/real/vllm-ascend-167-ray-visible-device/output.txt): the same thread, another worker.
const std::string kSetDeviceFailed =
    "(RayWorkerWrapper pid=118835) ERROR 02-26 09:45:37 worker_base.py:572]         The argument is invalid.Reason: "
    "Set visible device failed, invalid device=1, input visible devices:1";

}  // namespace

TEST_CASE("collective: a c10d store timeout is the rendezvous before HCCL, not a collective wait",
          "[collective]") {
  Report r = analyze_job_output(kStoreTimeout);
  const Finding* f = find(r, "collective/store-timeout");
  REQUIRE(f);
  CHECK(f->severity == Severity::error);
  CHECK(*f->find_value("store_timeout") == "1801s");
  CHECK(*f->find_value("ranks_joined") == "1/8");
  REQUIRE(f->evidence.size() == 1);
  CHECK(f->evidence[0].line == 3);
  CHECK_FALSE(find(r, "collective/wait-timeout"));
  CHECK_FALSE(find(r, "unexplained-errors"));  // the line is accounted for
  // The rank that prints it only waited: no cause is named from it alone.
  CHECK(top(r) == "insufficient-evidence");
  // Perturbation: the worker that could not set its device, from the same thread, leads.
  auto with_cause = kStoreTimeout;
  with_cause.insert(with_cause.begin(), kSetDeviceFailed);
  Report r2 = analyze_job_output(with_cause);
  CHECK(find(r2, "collective/store-timeout"));
  CHECK(top(r2) == "device-access");
}

TEST_CASE("collective: the c10d store family, each form with its values; near misses are not", "[collective]") {
  struct Case {
    std::string line, timeout, joined, address;
  };
  // Verbatim public lines (sources in knowledge/signatures/collective.json, c10d/store-timeout).
  const std::vector<Case> cases = {
      {"ERROR 10-25 12:21:14 worker_base.py:145] torch.distributed.DistStoreError: Timed out after 601 seconds "
       "waiting for clients. 1/2 clients joined.", "601s", "1/2", ""},
      {"torch.distributed.DistStoreError: Timed out after 6 seconds waiting for workers. 1/2 workers joined.", "6s",
       "1/2", ""},
      {"torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying to connect "
       "to (172.17.0.9, 46229).", "600000ms", "", "172.17.0.9, 46229"},
      {"RuntimeError: Timed out initializing process group in store based barrier on rank: 0, for key: "
       "store_based_barrier_key:1 (world_size=2, worker_count=1, timeout=0:10:00)", "0:10:00", "1/2", ""},
      {"torch.distributed.DistStoreError: wait timeout after 1800000ms", "1800000ms", "", ""},
  };
  for (const auto& c : cases) {
    CAPTURE(c.line);
    Report r = analyze_job_output({c.line});
    const Finding* f = find(r, "collective/store-timeout");
    REQUIRE(f);
    CHECK(*f->find_value("store_timeout") == c.timeout);
    if (c.joined.empty()) CHECK_FALSE(f->find_value("ranks_joined"));
    else CHECK(*f->find_value("ranks_joined") == c.joined);
    if (!c.address.empty()) CHECK(*f->find_value("store_address") == c.address);
  }
  for (const std::string near : {"    return TCPStore(",
                                 "ERROR 02-26 10:15:42 worker_base.py:572]     store, rank, world_size = "
                                 "next(rendezvous_iterator)"}) {
    CAPTURE(near);
    CHECK_FALSE(find(analyze_job_output({near}), "collective/store-timeout"));
  }
}
