// Issue 36, "an error-level line is never silent": a line of job output that no more specific
// reader judged and that starts with an error level (knowledge/error-levels.tsv) is a
// level_line job event with its module, time, pid and code, joins unexplained-errors, and is
// folded past kPlogKeptPerTemplate lines of one template and pid. Verbatim corpus lines and
// near misses that must stay silent.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>
#include <vector>

#include "analysis_test_support.h"
#include "correlator/passes/unexplained_errors.h"
#include "python_test_util.h"

using namespace triage;
using triage::pytest::parse_python_text;

namespace {

std::vector<const JobEvent*> level_events(const BundleFacts& f) {
  std::vector<const JobEvent*> out;
  for (const auto& e : f.python.job_events)
    if (e.kind == JobEventKind::level_line) out.push_back(&e);
  return out;
}

std::string value(const Finding& f, std::string_view key) {
  const std::string* v = f.find_value(key);
  return v ? *v : std::string("(none)");
}

std::vector<Finding> unexplained(const BundleFacts& b) {
  EvidenceSet set;
  set.bundles.push_back(b);
  std::vector<Finding> out;
  analyze_unexplained_errors(testing::context_for(set), out);
  return out;
}

// tests/data/real/vllm-omni-2898-stage-prefixed-rtgetdevmsg-null-context/output.txt
constexpr std::string_view kStage1 =
    "[Stage-1] ERROR 04-18 15:43:35 [multiproc_executor.py:800]         The argument is invalid.Reason: rtGetDevMsg execution failed, the context is a null pointer.\n"
    "[Stage-1] ERROR 04-18 15:43:35 [multiproc_executor.py:800] \n"
    "[Stage-1] INFO 04-18 15:43:36 [multiproc_executor.py:749] Parent process exited, terminating worker\n"
    "[Stage-1] INFO 04-18 15:43:36 [multiproc_executor.py:749] Parent process exited, terminating worker\n"
    "[Stage-1] ERROR 04-18 15:43:36 [multiproc_executor.py:800] WorkerProc failed to start.\n"
    "[Stage-1] ERROR 04-18 15:43:36 [multiproc_executor.py:800] Traceback (most recent call last):\n"
    "[Stage-1] ERROR 04-18 15:43:36 [multiproc_executor.py:800]   File \"/vllm-workspace/vllm/vllm/v1/executor/multiproc_executor.py\", line 771, in worker_main\n"
    "[Stage-1] ERROR 04-18 15:43:36 [multiproc_executor.py:800]     worker = WorkerProc(*args, **kwargs)\n"
    "[Stage-1] ERROR 04-18 15:43:36 [multiproc_executor.py:800]              ^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    "[Stage-1] ERROR 04-18 15:43:36 [multiproc_executor.py:800]   File \"/vllm-workspace/vllm/vllm/tracing/otel.py\", line 178, in sync_wrapper\n"
    "[Stage-1] ERROR 04-18 15:43:36 [multiproc_executor.py:800]     return func(*args, **kwargs)\n"
    "[Stage-1] ERROR 04-18 15:43:36 [multiproc_executor.py:800]            ^^^^^^^^^^^^^^^^^^^^^\n";

}  // namespace

TEST_CASE("level lines: vLLM ERROR logger lines outside the traceback are error lines", "[job][level_line]") {
  auto p = parse_python_text(kStage1);
  auto ev = level_events(p.facts);
  // The two messages; the blank ERROR line carries nothing; the traceback's lines are the
  // traceback reader's (frames, source lines, carets), not error lines of their own.
  REQUIRE(ev.size() == 2);
  CHECK(ev[0]->call == "The argument is invalid.Reason: rtGetDevMsg execution failed, the context is a null pointer.");
  CHECK(ev[0]->evidence.line == 1);
  CHECK(ev[0]->component.empty());
  CHECK(ev[0]->form == "vLLM logger");
  CHECK(ev[0]->source == "multiproc_executor.py:800");
  CHECK(ev[0]->time == "04-18 15:43:35");
  CHECK(ev[1]->call == "WorkerProc failed to start.");
  CHECK(ev[1]->evidence.line == 5);
  CHECK(p.facts.python.tracebacks.size() == 1);
  CHECK(p.stats.lines_unrecognised == 0);
  auto f = unexplained(p.facts);
  REQUIRE(f.size() == 1);
  CHECK(f[0].id == "unexplained-errors");
  CHECK(f[0].severity == Severity::warning);
  CHECK(value(f[0], "lines") == "2");
  CHECK(f[0].observed.find("WorkerProc failed to start") != std::string::npos);
  CHECK(f[0].observed.find("rtGetDevMsg execution failed") != std::string::npos);
}

TEST_CASE("level lines: a vLLM record's continuation lines are that record, not errors of their own",
          "[job][level_line]") {
  // tests/data/real/ascend-pytorch-61-vllm-prefixed-e40024-repeatinterleave/output.txt, lines
  // 27-31: a CANN report whose message runs over two lines, so its block ends early; its body
  // lines carry the record's prefix (vLLM prefixes every line of a record) and stay the
  // record's. The record's first line here is judged (the E40024 report header).
  const std::string text =
      "ERROR 03-04 12:57:08 [engine.py:409] E40024: 2025-03-04-12:56:24.963.302 Failed call Python Func/Meathod "
      "[get_binfile_sha256_hash_from_c], Reason[SystemError: PY_SSIZE_T_CLEAN macro must be defined for '#' formats\n"
      "ERROR 03-04 12:57:08 [engine.py:409] ] \n"
      "ERROR 03-04 12:57:08 [engine.py:409]         Possible Cause: The Python Func/Meathod does not exist.\n"
      "ERROR 03-04 12:57:08 [engine.py:409]         TraceBack (most recent call last):\n"
      "ERROR 03-04 12:57:08 [engine.py:409]         [SubGraphOpt][ParseJson][PkgTvmJsInfo] Parse blockDim failed\n"
      // another record (another second): an error of its own
      "ERROR 03-04 12:57:09 [engine.py:410] Engine loop died\n"
      "ERROR 03-04 12:57:09 [engine.py:410] while serving request 12\n";
  auto p = parse_python_text(text);
  auto ev = level_events(p.facts);
  REQUIRE(ev.size() == 1);
  CHECK(ev[0]->call == "Engine loop died");
  CHECK(p.stats.lines_unrecognised == 0);
  // tests/data/real/vllm-ascend-1007-ee1001-memcpy/output.txt, lines 1-3: the excerpt starts
  // inside a record; its first line stands for it.
  auto q = parse_python_text(
      "ERROR 05-29 20:52:26 worker_base.py:581] Since the operator is called asynchronously, the stacktrace may be "
      "inaccurate. If you want to get the accurate stacktrace, pleace set the environment variable ASCEND_LAUNCH_BLOCKING=1.\n"
      "ERROR 05-29 20:52:26 worker_base.py:581] Note: ASCEND_LAUNCH_BLOCKING=1 will force ops to run in synchronous "
      "mode, resulting in performance degradation. Please unset ASCEND_LAUNCH_BLOCKING in time after debugging.\n"
      "ERROR 05-29 20:52:26 worker_base.py:581] [ERROR] 2025-05-29-20:52:26 (PID:1059, Device:0, RankID:-1) ERR00100 "
      "PTA call acl api failed.\n");
  auto qe = level_events(q.facts);
  REQUIRE(qe.size() == 1);
  CHECK(qe[0]->evidence.line == 1);
  // A record that starts with a blank line: its first line with text stands for it.
  auto b = parse_python_text(
      "ERROR 04-18 15:43:35 [multiproc_executor.py:800] \n"
      "ERROR 04-18 15:43:35 [multiproc_executor.py:800] WorkerProc failed to start.\n");
  REQUIRE(level_events(b.facts).size() == 1);
  CHECK(level_events(b.facts)[0]->evidence.line == 2);
}

TEST_CASE("level lines: TBE subprocess [ERROR] lines behind a Ray prefix keep the worker's pid", "[job][level_line]") {
  // tests/data/real/verl-2012-ray-tbe-subprocess-main-process-disappeared/output.txt
  std::string text =
      "(\"Final validation metrics: {'val-core/openai/gsm8k/reward/mean@1': \"\n"
      "'0.3661865049279757}')\n"
      "\n";
  for (int i = 0; i < 4; ++i)
    text += "(WorkerDict pid=1896673) [ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!\n";
  auto p = parse_python_text(text);
  auto ev = level_events(p.facts);
  REQUIRE(ev.size() == 4);
  CHECK(ev[0]->form == "[ERROR] line");
  CHECK(ev[0]->call == "TBE Subprocess[task_distribute] raise error[], main process disappeared!");
  auto f = unexplained(p.facts);
  REQUIRE(f.size() == 1);
  CHECK(value(f[0], "lines") == "4");
  CHECK(value(f[0], "groups") == "1");
  CHECK(value(f[0], "group.0").find("pid 1896673") != std::string::npos);
  CHECK(value(f[0], "group.0").find("x4") != std::string::npos);
}

TEST_CASE("level lines: MindSpore launcher records with pid:tid keep their pid, time and module", "[job][level_line]") {
  // tests/data/real/mindact-1983-msrun-scheduler-grep-timeout-node/console.txt, lines 1-4
  const std::string text =
      "[WARNING] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:12.444.000 [mindspore/parallel/cluster/process_entity/_api.py:318] There's worker exits with exception, kill all other workers.\n"
      "[ERROR] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:38.720.000 [mindspore/parallel/cluster/process_entity/_api.py:331] Scheduler process 162146 exit with exception.\n"
      "[WARNING] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:38.721.000 [mindspore/parallel/cluster/process_entity/_api.py:334] Analyzing exception log...\n"
      "[ERROR] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:38.722.000 [mindspore/parallel/cluster/process_entity/_api.py:431] Time out nodes are ['3']\n";
  auto p = parse_python_text(text);
  auto ev = level_events(p.facts);
  REQUIRE(ev.size() == 2);  // the WARNING records raise nothing
  CHECK(ev[0]->component == "ME");
  CHECK(ev[0]->pid == 162078);
  CHECK(ev[0]->time == "2025-03-10-09:40:38.720.000");
  CHECK(ev[0]->code.empty());  // 162146 is a pid, not a code
  CHECK(ev[1]->call == "Time out nodes are ['3']");
  auto f = unexplained(p.facts);
  REQUIRE(f.size() == 1);
  CHECK(value(f[0], "lines") == "2");
}

TEST_CASE("level lines: codes named in the message join the group's key", "[job][level_line]") {
  // Python logging with asctime (samples/incident-loose-files/output.txt's form), Python
  // logging's basic format and glog, each naming a code its own way. (The sample's own line,
  // `... ACL error: 107020 (...)`, is a torch_npu error: that reader judges it first.)
  auto p = parse_python_text(
      "2026-09-04 09:45:03,604 - det - ERROR - epoch 0 iter 0 failed to open device 4, error code 107001\n"
      "ERROR:root:collective step failed with EI0002, see the plog\n"
      "E0708 15:01:14.136582 96875 init.cc:236] aclInit failed, error code is 500001\n");
  auto ev = level_events(p.facts);
  REQUIRE(ev.size() == 3);
  CHECK(ev[0]->code == "107001");
  CHECK(ev[0]->component == "det");
  CHECK(ev[0]->time == "2026-09-04 09:45:03,604");
  CHECK(ev[0]->device == 4);
  CHECK(ev[1]->code == "EI0002");
  CHECK(ev[1]->component == "root");
  CHECK(ev[2]->code == "500001");
  CHECK(ev[2]->form == "glog");
  CHECK_FALSE(ev[2]->pid);
}

TEST_CASE("level lines: a line another reader judged is not counted twice", "[job][level_line]") {
  auto p = parse_python_text(
      // ERR line (torch_npu): its own reader
      "[ERROR] 2026-06-08-19:41:31 (PID:8818, Device:0, RankID:-1) ERR01100 OPS call acl api failed\n"
      // MindSpore's own record: parse_mindspore_line
      "[ERROR] KERNEL(40354,fffdd6e1f1e0,python):2023-10-13-09:30:47.546.313 [mindspore/ccsrc/kernel/oplib/op_info_utils.cc:172] LoadOpInfoJson] Get op info json suffix path failed\n"
      // a plog line on stdout: the plog reader
      "[ERROR] RUNTIME(85483,python):2024-04-19-18:13:17.186.318 [task_info.cc:1678]85658 PrintErrorInfoForDavinciTask:Aicore kernel execute failed\n"
      // an exception line behind a vLLM ERROR prefix: the traceback reader
      "ERROR 10-10 14:03:52 [multiproc_executor.py:597] RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity)\n"
      // an application logger record (parse_app_log_line)
      "20260831-01:43:41.474 TrainWorker ERROR: Error in engine thread\n");
  CHECK(level_events(p.facts).empty());
}

TEST_CASE("level lines: near misses and lower levels keep nothing and raise nothing", "[job][level_line]") {
  auto p = parse_python_text(
      "ERRORS: 0\n"
      "error_count=3\n"
      "An error occurred while saving the checkpoint; retrying\n"
      "INFO 04-18 15:43:36 [api_server.py:12] stage 1 replied \"[ERROR] WorkerProc failed to start.\"\n"
      "INFO: got \"[ERROR] TBE Subprocess[task_distribute] raise error[]\" from the worker\n"
      "WARNING 04-18 15:43:36 [multiproc_executor.py:749] Parent process exited, terminating worker\n"
      "(WorkerDict pid=1896673) [WARNING] TBE Subprocess[task_distribute] is slow\n"
      "W0708 15:01:14.136582 96875 init.cc:236] retrying\n"
      "2026-09-04 09:45:03,604 - det - WARNING - epoch 0 iter 0 is slow\n"
      "[ERROR]\n");
  CHECK(level_events(p.facts).empty());
  CHECK(unexplained(p.facts).empty());
}

TEST_CASE("level lines: a storm of one template keeps its first lines and counts the rest", "[job][level_line][storm]") {
  const int n = 300;
  std::string text;
  for (int i = 0; i < n; ++i)
    text += fmt::format("(WorkerDict pid=1896673) ERROR 04-18 15:{:02}:{:02} [worker.py:12] step {} failed on rank 3\n",
                        i / 60 % 60, i % 60, i);
  text += "(WorkerDict pid=1896674) ERROR 04-18 16:00:00 [worker.py:12] step 1 failed on rank 3\n";  // another pid
  auto p = parse_python_text(text);
  auto ev = level_events(p.facts);
  REQUIRE(ev.size() == kPlogKeptPerTemplate + 1);
  uint64_t repeats = 0;
  for (const JobEvent* e : ev) repeats += e->repeats;
  CHECK(repeats == n - kPlogKeptPerTemplate);
  CHECK(ev[kPlogKeptPerTemplate - 1]->repeats == n - kPlogKeptPerTemplate);
  auto f = unexplained(p.facts);
  REQUIRE(f.size() == 1);
  CHECK(value(f[0], "lines") == std::to_string(n + 1));  // every line counted, none dropped
}
