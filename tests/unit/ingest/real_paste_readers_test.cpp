// Issue 19, real pastes: the forms the readers learnt from the corpus's last gaps
// (tests/real/known-failures.tsv), on the verbatim lines of tests/data/real/<excerpt>/ and
// near misses that must not match.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "correlator/correlate.h"
#include "correlator/summaries/facts_listing.h"
#include "ingest/classify.h"
#include "knowledge/component_phrases.h"
#include "parsers/job/job_lines.h"
#include "parsers/job/pip_console.h"
#include "parsers/job/python_lines.h"
#include "parsers/plog/device_export_parser.h"

#include "analysis_test_support.h"
#include "bundle_test_util.h"
#include "python_test_util.h"

using namespace triage;
using namespace triage::testing;

namespace {

// `key=value` of every fact `ascend-triage facts` would print.
std::set<std::string> fact_set(const BundleFacts& f) {
  std::set<std::string> out;
  for (const auto& r : list_facts(f)) out.insert(r.key + "=" + r.value);
  return out;
}

}  // namespace

TEST_CASE("an application's own logger time is a line time", "[job][real]") {
  // ascend-pytorch-166
  const std::string line =
      "20260831-01:43:41.474 TrainWorker ERROR: Error in engine thread when running init_weights_update_group: "
      "Failed to initialize custom process group: ProcessGroupHCCL:../torch_npu/csrc/distributed/"
      "ProcessGroupHCCL.cpp:1064 NPU function error: c10_npu::acl::AclrtSetOpWaitTimeout(kOpWaitTimeout), error code is 507049";
  auto a = joblines::parse_app_log_line(line);
  REQUIRE(a);
  CHECK(a->time_text == "20260831-01:43:41.474");
  CHECK(a->logger == "TrainWorker");
  CHECK(a->level == "ERROR");
  CHECK(a->message.starts_with("Error in engine thread"));
  auto p = pytest::parse_python_text(line + "\n");
  auto facts = fact_set(p.facts);
  CHECK(facts.count("time=20260831-01:43:41.474"));
  CHECK(facts.count("code=507049"));
  CHECK(p.stats.lines_recognised == 1);
  // Without a logger name, and an INFO record (recognised, no fact).
  CHECK(joblines::parse_app_log_line("20260831-01:43:41 WARNING: slow step"));
  auto info = pytest::parse_python_text("20260831-01:43:40.001 TrainWorker INFO: step 3 done\n");
  CHECK(info.stats.lines_recognised == 1);
  CHECK(!fact_set(info.facts).count("time=20260831-01:43:40.001"));
  // Near misses: a bare 8-digit number, a month or hour out of range, no level word.
  CHECK(!joblines::parse_app_log_line("20260831 TrainWorker ERROR: Error in engine thread"));
  CHECK(!joblines::parse_app_log_line("20261331-01:43:41.474 TrainWorker ERROR: x failed"));
  CHECK(!joblines::parse_app_log_line("20260831-25:43:41.474 TrainWorker ERROR: x failed"));
  CHECK(!joblines::parse_app_log_line("20260831-01:43:41.474 the job stopped with an error"));
  CHECK(!joblines::parse_app_log_line("12345678-01:43:41.474 TrainWorker ERROR: x"));
}

TEST_CASE("a CANN report header damaged by the paste keeps its pid and time", "[job][real]") {
  // llamacpp-16586
  auto h = pylines::parse_report_header(
      "EE9999: [PID:  [881460] 2025-10-15-14:43:16.351.702 Not allow to synchronize captured stream "
      "stream_id=2.[FUNC:StreamSynchronize][FILE:api_error.cc][LINE:884]");
  REQUIRE(h);
  CHECK(h->code == "EE9999");
  CHECK(h->pid == 881460);
  CHECK(h->has_time);
  CHECK(h->time_text == "2025-10-15-14:43:16.351.702");
  CHECK(h->message.starts_with("Not allow to synchronize"));
  // Near misses: no CANN time after the pid, or no pid at all: a bare header (code only).
  auto no_time = pylines::parse_report_header("EE9999: [PID:  [881460] see the log above");
  REQUIRE(no_time);
  CHECK(!no_time->pid);
  CHECK(!no_time->has_time);
  auto words = pylines::parse_report_header("EE9999: [PID: unknown] 2025-10-15-14:43:16.351.702 x");
  REQUIRE(words);
  CHECK(!words->pid);
  CHECK(!pylines::parse_report_header("See [PID:  [881460] 2025-10-15-14:43:16.351.702 text"));
}

TEST_CASE("key=value ids on an application's error line are device, stream and task facts", "[job][real]") {
  // simpler-2395
  const char* line = "operator(): [device_runner_base.cpp:2752] device fault reported: device_id=4 stream_id=46 task_id=0";
  auto v = joblines::parse_id_values(line);
  REQUIRE(v);
  CHECK(v->device == 4);
  CHECK(v->stream == 46);
  CHECK(v->task == 0);
  auto facts = fact_set(pytest::parse_python_text(std::string(line) + "\n").facts);
  CHECK(facts.count("device=4"));
  CHECK(facts.count("stream=46"));
  CHECK(facts.count("task=0"));
  // Near misses: ids without an error word, another id's suffix, no number.
  CHECK(!joblines::parse_id_values("submitted: device_id=4 stream_id=46 task_id=0"));
  CHECK(!joblines::parse_id_values("error: sub_device_id=4 my_stream_id=46"));
  CHECK(!joblines::parse_id_values("error: device_id=x stream_id="));
  auto quiet = pytest::parse_python_text("launched: device_id=4 stream_id=46 task_id=0\n");
  CHECK(quiet.facts.python.job_events.empty());
}

TEST_CASE("the task on the CPU of a hard lockup is the lockup's pid and comm", "[kernel][real]") {
  TempDir dir;
  LoadResult keep;
  // mind-cluster-faultdiag-testdata-vmcore-dmesg-insmod-lockup
  const BundleFacts& f = load_one(dir, "vmcore-dmesg.txt",
                                  "[  293.039556] NMI watchdog: Watchdog detected hard LOCKUP on cpu 34\n"
                                  "[  293.039558] CPU: 34 PID: 9452 Comm: insmod Kdump: loaded Tainted: G           OE    "
                                  "--------- -  - 4.18.0-147.5.2.15.h1109.eulerosv2r10.x86_64 #1\n",
                                  keep);
  REQUIRE(f.logs.signature_hits.size() == 1);
  const SignatureHit& h = f.logs.signature_hits[0];
  CHECK(h.id == "kernel/hard-lockup");
  using Capture = std::pair<std::string, std::string>;
  CHECK(h.captures == std::vector<Capture>{{"cpu", "34"}, {"pid", "9452"}, {"comm", "insmod"}});
  CHECK(fact_set(f).count("pid=9452"));

  // Near misses: a task line with no report before it, and one too far after it.
  TempDir dir2;
  LoadResult keep2;
  std::string far = "[  293.039556] NMI watchdog: Watchdog detected hard LOCKUP on cpu 34\n";
  for (int i = 0; i < 9; ++i) far += "[  293.039557] Modules linked in: x\n";
  far += "[  293.039558] CPU: 34 PID: 9452 Comm: insmod Kdump: loaded\n"
         "[  300.000000] CPU: 3 PID: 77 Comm: python3 Tainted: G\n";
  const BundleFacts& g = load_one(dir2, "dmesg.txt", far, keep2);
  REQUIRE(g.logs.signature_hits.size() == 1);
  CHECK(g.logs.signature_hits[0].captures.size() == 1);
  CHECK(!fact_set(g).count("pid=9452"));
  CHECK(!fact_set(g).count("pid=77"));
}

TEST_CASE("the black box's driver record: the device its text states", "[device_export][real]") {
  // mind-cluster-faultdiag-testdata-device-log-tree
  using Shape = BboxDriverLine::Shape;
  CHECK(parse_bbox_driver_line("driver info:").shape == Shape::header);
  auto status = parse_bbox_driver_line(
      "devid: 2, module: 1 2021-10-05 15:07:08 651408 devid: 2 device manager current status: working.");
  CHECK(status.shape == Shape::status);
  CHECK(status.device == 2);
  CHECK(parse_bbox_driver_line("excep_id: 0xa8028802 .").shape == Shape::exception_id);
  auto fail = parse_bbox_driver_line(
      "device_id = 2, fail info: device_id-2 appeared multi ecc err, the physical address is 0x400cd8d202e0");
  CHECK(fail.shape == Shape::fail_info);
  CHECK(fail.device == 2);
  CHECK(fail.ecc == "multi-bit ECC");
  CHECK(fail.physical_address == "0x400cd8d202e0");
  // A fail info that names no ECC error is no memory error.
  auto other = parse_bbox_driver_line("device_id = 2, fail info: device_id-2 heartbeat lost");
  CHECK(other.shape == Shape::fail_info);
  CHECK(other.ecc.empty());
  // Near misses
  CHECK(parse_bbox_driver_line("devid: two, module: 1").shape == Shape::none);
  CHECK(parse_bbox_driver_line("devid: 2 is working").shape == Shape::none);
  CHECK(parse_bbox_driver_line("device_id = 2").shape == Shape::none);
  CHECK(parse_bbox_driver_line("excep_id: 0x12 .").shape == Shape::none);

  TempDir dir;
  std::string path = "device_log/hisi_logs/device-0/20230713162044-070000011/bbox/driver.txt";
  CHECK(device_export_file_kind(path) == "bbox-driver");
  write_file(dir / path,
             "driver info:\n"
             "devid: 2, module: 1 2021-10-05 15:07:08 651408 devid: 2 device manager current status: working.\n"
             "excep_id: 0xa8028802 .\n"
             "device_id = 2, fail info: device_id-2 appeared multi ecc err, the physical address is 0x400cd8d202e0");
  LoadResult r = load({dir / "device_log"});
  REQUIRE(r.evidence.bundles.size() == 1);
  const BundleFacts& f = r.evidence.bundles[0];
  REQUIRE(f.devices.ras_events.size() == 1);
  CHECK(f.devices.ras_events[0].event_id == "0xa8028802");
  CHECK(f.devices.ras_events[0].device == 2);  // the path says device-0
  CHECK(f.devices.ras_events[0].file_kind == "bbox-driver");
  CHECK(fact_set(f).count("device=2"));
  REQUIRE(f.devices.memory_errors.size() == 1);
  CHECK(f.devices.memory_errors[0].device == 2);
  CHECK(f.devices.memory_errors[0].error_type == "multi-bit ECC (black-box driver record)");
  CHECK(f.devices.memory_errors[0].physical_address == "0x400cd8d202e0");
  CHECK(f.devices.memory_errors[0].evidence.line == 4);
  // The multi-bit error is the device's hardware fault: critical, and it leads the verdict.
  Report rep = correlate(r.evidence, AnalyzeOptions{});
  const Finding* ecc = testing::find_finding(rep.findings, "device-exception/hbm-ecc");
  REQUIRE(ecc);
  CHECK(ecc->severity == Severity::critical);
  CHECK(*ecc->find_value("device") == "2");
  CHECK(rep.verdict.ranked.front().id == "device-hardware");
}

TEST_CASE("pip's install console gives the versions it fetched and installed", "[job][real]") {
  using pipconsole::PipLine;
  // vllm-ascend-3793
  auto c = pipconsole::parse_pip_line("Collecting vllm-ascend==0.11.0rc0");
  REQUIRE(c);
  CHECK(c->shape == PipLine::Shape::collecting);
  CHECK(c->name == "vllm-ascend");
  CHECK(c->version == "0.11.0rc0");
  auto dep = pipconsole::parse_pip_line("Collecting cmake>=3.26 (from vllm-ascend==0.11.0rc0)");
  REQUIRE(dep);
  CHECK(dep->version.empty());  // a range, not a version
  CHECK(pipconsole::parse_pip_line("Looking in indexes: https://mirrors.tuna.tsinghua.edu.cn/pypi/web/simple"));
  CHECK(pipconsole::parse_pip_line(
      "  Downloading https://mirrors.tuna.tsinghua.edu.cn/pypi/web/packages/9b/9c/976431986d8e18a328388c07276a3bfcd1bcc38053907c8d1a05baba659d/"
      "vllm_ascend-0.11.0rc0-cp311-cp311-manylinux_2_24_aarch64.whl (671 kB)"));
  CHECK(pipconsole::parse_pip_line(
      "     \xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81 671.1/671.1 kB 4.6 MB/s  0:00:00"));
  auto ok = pipconsole::parse_pip_line("Successfully installed cmake-4.1.2 vllm-ascend-0.11.0rc0");
  REQUIRE(ok);
  std::string_view name, version;
  REQUIRE(pipconsole::split_installed_item("vllm-ascend-0.11.0rc0", name, version));
  CHECK(name == "vllm-ascend");
  CHECK(version == "0.11.0rc0");
  CHECK(!pipconsole::split_installed_item("vllm-ascend", name, version));
  auto sat = pipconsole::parse_pip_line(
      "Requirement already satisfied: torch==2.8.0 in /usr/local/lib/python3.11/site-packages (from vllm-ascend) (2.8.0)");
  REQUIRE(sat);
  CHECK(sat->name == "torch");
  CHECK(sat->version == "2.8.0");
  // Near misses: vLLM's collect_env banner, a sentence, a download that is no package.
  CHECK(!pipconsole::parse_pip_line("Collecting environment information..."));
  CHECK(!pipconsole::parse_pip_line("Collecting garbage at 10:00"));
  CHECK(!pipconsole::parse_pip_line("Downloading the model weights"));

  // The segment after a `pip install` prompt is read as job output; `pip list` stays a table.
  CHECK(kind_from_command("pip install vllm-ascend==0.11.0rc0") == SourceKind::python_log);
  CHECK(kind_from_command("python3 -m pip install -U torch-npu") == SourceKind::python_log);
  CHECK(kind_from_command("pip list | grep -E \"torch|vllm\"") == SourceKind::pip_list_text);
  CHECK(kind_from_command("pip download vllm-ascend") != SourceKind::python_log);

  auto p = pytest::parse_python_text(
      "Collecting vllm-ascend==0.11.0rc0\n"
      "Successfully installed cmake-4.1.2 vllm-ascend-0.11.0rc0\n");
  auto facts = fact_set(p.facts);
  CHECK(facts.count("version=0.11.0rc0"));
  CHECK(facts.count("version=4.1.2"));
  REQUIRE(p.facts.libraries.default_pip.size() == 2);  // one row per package: the first wins
  CHECK(p.facts.libraries.default_pip[0].kind == "pip-collecting");
  CHECK(p.facts.libraries.default_pip[1].kind == "pip-installed");
  CHECK(p.stats.lines_recognised == 2);
}

TEST_CASE("component phrases name the component of a report printed without a module", "[knowledge][real]") {
  std::vector<std::string> errors;
  auto t = parse_component_phrases(
      "# comment\ncomponent\tphrase\tsource\nHCCL\tfunction of the hccl module\tx.cc\nAICPU\tAicpu kernel execute failed\ty.cc\n",
      "component-phrases.tsv", errors);
  CHECK(errors.empty());
  CHECK(t.find("Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 4") == "HCCL");
  CHECK(t.find("aicpu kernel execute failed") == "");  // case counts
  // A short phrase, a wrong header, a missing source are errors.
  errors.clear();
  parse_component_phrases("component\tphrase\tsource\nHCCL\thccl\tx\n", "f.tsv", errors);
  CHECK(errors.size() == 1);
  errors.clear();
  parse_component_phrases("component\tphrase\nHCCL\tof the hccl module\n", "f.tsv", errors);
  CHECK(!errors.empty());

  // vllm-ascend-5461: the built-in table, through the job-output reader
  auto p = pytest::parse_python_text(
      "[PID: 749] 2025-12-29-03:16:15.787.356 Get_Socket_Timeout(EI0006): Getting socket times out. Reason: 1. "
      "The remote does not initiate a connect request. some NPUs in the cluster are abnormal.\n"
      "        TraceBack (most recent call last):\n"
      "        Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 4, "
      "comm = 0xfffcc6ed27a0.\n");
  REQUIRE(p.facts.python.error_reports.size() == 1);
  CHECK(p.facts.python.error_reports[0].component == "HCCL");
  CHECK(fact_set(p.facts).count("component=HCCL"));
  // A report whose text names no component keeps none.
  auto q = pytest::parse_python_text("EZ9999: Inner Error!\nEZ9999[PID: 1] 2025-01-01-00:00:00.000.000 (EZ9999): something broke\n");
  REQUIRE(q.facts.python.error_reports.size() == 1);
  CHECK(q.facts.python.error_reports[0].component.empty());
}

TEST_CASE("MindSpore records: the EXCEPTION level, the runtime result and the CANN code they quote", "[job][real]") {
  // mindspore-docs-cann-errors-ee9999-halmemalloc-207001 (older MindSpore prints [EXCEPTION])
  auto oom = fact_set(pytest::parse_python_text(
                          "[EXCEPTION] DEVICE(170414,fffe397fa1e0,python):2021-09-13-15:29:07.465.388 "
                          "[mindspore/ccsrc/runtime/device/ascend/ascend_memory_manager.cc:62] MallocDeviceMemory] "
                          "Malloc device memory failed, size[32212254720], ret[207001], Device 6 may be other "
                          "processes occupying this card, check as: ps -ef|grep python\n")
                          .facts);
  CHECK(oom.count("code=207001"));
  CHECK(oom.count("pid=170414"));
  CHECK(oom.count("time=2021-09-13-15:29:07.465.388"));
  CHECK_FALSE(oom.count("code=322122"));  // the size is no code
  // mindspore-docs-cann-errors-ei0002-heartbeat-lost: the Ascend message appended to MindSpore's line
  auto hccl = fact_set(pytest::parse_python_text(
                           "[CRITICAL] DEVICE(162844,fffd6cff91e0,python):2022-12-01-00:26:58.399.787 "
                           "[mindspore/ccsrc/plugin/device/ascend/hal/hardware/ascend_graph_executor.cc:240] RunGraph] "
                           "Run task for graph:kernel_graph_1 error! The details refer to 'Ascend Error Message'.Ascend "
                           "Error Message:EI0002: The wait execution of the Notify register times out.\n")
                           .facts);
  CHECK(hccl.count("code=EI0002"));
  // Near misses: a short ret, a longer number, a word ending in ret, a message without a code.
  for (const char* line :
       {"[ERROR] DEVICE(1,fffe397fa1e0,python):2021-09-13-15:29:07.465.388 [a.cc:1] F] Sync failed, ret[0]",
        "[ERROR] DEVICE(1,fffe397fa1e0,python):2021-09-13-15:29:07.465.388 [a.cc:1] F] Sync failed, ret: 5070111",
        "[ERROR] DEVICE(1,fffe397fa1e0,python):2021-09-13-15:29:07.465.388 [a.cc:1] F] offset_ret[507011]",
        "[ERROR] DEVICE(1,fffe397fa1e0,python):2021-09-13-15:29:07.465.388 [a.cc:1] F] Ascend Error Message:see above"}) {
    INFO(line);
    for (const auto& f : fact_set(pytest::parse_python_text(std::string(line) + "\n").facts))
      CHECK(f.rfind("code=", 0) != 0);
  }
}

TEST_CASE("HCCL's abnormal-device list and MindSpore's appended CANN report are report bodies", "[job][real]") {
  CHECK(pylines::is_hccl_message_line("there are(is) 1 abnormal device(s):"));
  CHECK(pylines::is_hccl_message_line("]"));
  // Near misses: no count, words after the colon, an indented or longer bracket line.
  CHECK_FALSE(pylines::is_hccl_message_line("there are(is) some abnormal device(s):"));
  CHECK_FALSE(pylines::is_hccl_message_line("there are(is) 1 abnormal device(s): none"));
  CHECK_FALSE(pylines::is_hccl_message_line(" ]"));
  CHECK_FALSE(pylines::is_hccl_message_line("]]"));
  // mindspore-docs-cann-errors-ei0002-heartbeat-lost, lines 3 to 9 (long lines cut at a word)
  const std::string paste =
      "[CRITICAL] DEVICE(162844,fffd6cff91e0,python):2022-12-01-00:26:58.399.787 "
      "[mindspore/ccsrc/plugin/device/ascend/hal/hardware/ascend_graph_executor.cc:240] RunGraph] "
      "Run task for graph:kernel_graph_1 error! The details refer to 'Ascend Error Message'.Ascend "
      "Error Message:EI0002: The wait execution of the Notify register times out.\n"
      "there are(is) 1 abnormal device(s):\n"
      "        serverId[10.*.*.*], deviceId[0], Heartbeat Lost Occurred, Possible Reason: 1. Process has "
      "exited, 2. Network Disconnected\n"
      "]\n"
      "        Possible Cause: 1. An exception occurs during the execution on some NPUs in the cluster.\n"
      "        TraceBack (most recent call last):\n"
      "        Notify wait execute failed, device_id=1, stream_id=14, task_id=4, flip_num=0, "
      "notify_id=11[FUNC:GetError][FILE:stream.cc][LINE:921]\n";
  auto p = pytest::parse_python_text(paste);
  REQUIRE(p.facts.python.error_reports.size() == 1);
  const ErrorReportBlock& r = p.facts.python.error_reports[0];
  CHECK(r.code == "EI0002");
  CHECK(r.frames.size() == 1);
  CHECK(p.stats.lines_unrecognised == 0);
  // Without the report opener the same body lines are not claimed by a report.
  auto bare = pytest::parse_python_text("there are(is) 1 abnormal device(s):\n]\n");
  CHECK(bare.facts.python.error_reports.empty());
}
