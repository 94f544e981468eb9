// Issue 36, general readers: knowledge/job-text-forms.tsv. An error-level line of any shape
// (an error word or code anywhere) in a text no line shape names is job output, not "no
// recognised evidence", and joins unexplained-errors with its codes; a healthy run's
// progress lines (training steps, inference-server lifecycle) make a log job output that
// raises nothing; an error line followed in the same stream by a logged successful fallback
// is handled (signature job/handled-error), not unexplained. Verbatim corpus lines and near
// misses for each family.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analysis_test_support.h"
#include "correlator/passes/unexplained_errors.h"
#include "ingest/classify.h"
#include "knowledge/job_text_forms.h"
#include "knowledge/knowledge.h"
#include "python_test_util.h"

using namespace triage;
using triage::pytest::parse_python_text;

namespace {

std::string builtin(std::string_view name) {
  for (const auto& f : builtin_knowledge_files())
    if (f.name == name) return f.content;
  return {};
}

bool is_error(std::string_view line) { return JobTextForms::is_error(job_text_forms_for("").roles(line)); }
bool is_progress(std::string_view line) { return job_text_forms_for("").roles(line) & kTextProgress; }

std::vector<const JobEvent*> text_events(const BundleFacts& f) {
  std::vector<const JobEvent*> out;
  for (const auto& e : f.python.job_events)
    if (e.kind == JobEventKind::level_line && e.form == "error text") out.push_back(&e);
  return out;
}

std::vector<Finding> unexplained(const BundleFacts& b) {
  EvidenceSet set;
  set.bundles.push_back(b);
  std::vector<Finding> out;
  analyze_unexplained_errors(testing::context_for(set), out);
  return out;
}

size_t handled_hits(const BundleFacts& b) {
  size_t n = 0;
  for (const auto& h : b.logs.signature_hits) n += h.id == "job/handled-error";
  return n;
}

// tests/data/real/ucm-143-nfsstore-aclrtmallochost-107002/output.txt, lines 3 to 5
constexpr std::string_view kUcm =
    "[2025-09-02 16:47:06.238008 +08:00] [UCMNFSSTORE] [I] Task(3,S2D,1,262144) finished, elapsed=0.005252s, bw=0.046482GB/s. [380106,381686] [tsf_task_waiter.h:43,Done]\n"
    "[2025-09-02 16:47:06.238344 +08:00] [UCMNFSSTORE] [E] ACL ERROR: api=aclrtMallocHost, code=107002, caller=MakeBuffer,aclrt_device.cc:106. [380106,381690] [aclrt_device.cc:35,AclrtApi]\n"
    "[2025-09-02 16:47:06.238364 +08:00] [UCMNFSSTORE] [W] Reservation exhausted, try to alloc OS memory(262144). [380106,381690] [ibuffered_device.cc:47,GetBuffer]\n";

}  // namespace

TEST_CASE("job text forms: the built-in file passes its check; a broken row is named", "[job][text_forms]") {
  size_t samples = 0;
  CHECK(check_job_text_forms(builtin(kJobTextFormsFile), std::string(kJobTextFormsFile), samples).empty());
  CHECK(samples == 2 * job_text_forms_for("").forms.size());
  std::string broken = "form\trole\tpattern\tsample\tnear_miss\tsource\n"
                       "a\tloud\tx\tx\ty\tsrc\n"
                       "b\terror\t(\tx\ty\tsrc\n"
                       "c\terror\tfailed\tok\tfailed\tsrc\n";
  auto problems = check_job_text_forms(broken, "t.tsv", samples);
  REQUIRE(problems.size() == 4);
  CHECK_THAT(problems[0], Catch::Contains("t.tsv:2: role must be"));
  CHECK_THAT(problems[1], Catch::Contains("t.tsv:3: pattern does not compile"));
  CHECK_THAT(problems[2], Catch::Contains("c: its sample does not match"));
  CHECK_THAT(problems[3], Catch::Contains("c: its near miss matches"));
}

TEST_CASE("job text forms: error lines of any shape, and lines of a lower level that name a failure", "[job][text_forms]") {
  // Verbatim: alphafold-1073, ascend-device-plugin-103, ucm-143.
  CHECK(is_error("Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed"));
  CHECK(is_error("failed to mount src: /usr/local/bin/npu-smi.failed to mount dev.failed to do file mounting for.failed to mount files."));
  CHECK(is_error("Allocate failed due to rpc error: code = Unknown desc = apply device-share for pod"));
  CHECK(is_error("npu-smi set device-share -i 1 -c 0 -d 1: npu-smi not found in"));
  CHECK(is_error("[2025-09-02 16:47:06.238344 +08:00] [UCMNFSSTORE] [E] ACL ERROR: api=aclrtMallocHost, code=107002, caller=MakeBuffer,aclrt_device.cc:106. [380106,381690] [aclrt_device.cc:35,AclrtApi]"));
  // The family: klog, an exit status, a code as key=value, a missing library.
  CHECK(is_error("E1206 12:00:00.000000       1 plugin.go:212] ListAndWatch: device health check error"));
  CHECK(is_error("error running prestart hook #0: exit status 1"));
  CHECK(is_error("aclrtSetDevice returned ret=507033"));
  CHECK(is_error("libascend_hal.so: cannot open shared object file"));
  // Near misses: lower levels, counts, success codes, words inside identifiers.
  CHECK_FALSE(is_error("[2025-09-02 16:47:06.238364 +08:00] [UCMNFSSTORE] [W] Reservation exhausted, try to alloc OS memory(262144). [380106,381690] [ibuffered_device.cc:47,GetBuffer]"));
  CHECK_FALSE(is_error("WARNING 03-02 10:11:12 [utils.py:88] Failed to import from vllm._C with ModuleNotFoundError"));
  CHECK_FALSE(is_error("INFO:     127.0.0.1:5000 - \"GET /health HTTP/1.1\" 404 Not Found"));
  CHECK_FALSE(is_error("I1206 12:00:00.000000       1 plugin.go:212] failed to watch, will retry"));
  CHECK_FALSE(is_error("2024-01-01 12:00:00,123 - root - WARNING - connection failed: retrying"));
  CHECK_FALSE(is_error("tests: 12 passed, 0 failed"));
  CHECK_FALSE(is_error("process exited with exit code 0"));
  CHECK_FALSE(is_error("export ERROR_LOG_DIR=/var/log/app"));
  CHECK_FALSE(is_error("found 8 devices"));
}

TEST_CASE("job text forms: progress lines of healthy runs, and their near misses", "[job][text_forms]") {
  // Verbatim: libai-551, sglang-17157; the family from each stack's logger.
  CHECK(is_progress("[09/10 10:40:56 lb.utils.events]:  eta: 21:00:38  iteration: 19/10000  consumed_samples: 80  total_loss: 9.895  time: 7.5187 s/iter  data_time: 0.0021 s/iter total_throughput: 0.53 samples/s lr: 1.50e-04"));
  CHECK(is_progress("[2026-01-15 13:56:49 DP0 TP0] KV Cache is allocated. #tokens: 192896, K size: 8.84 GB, V size: 8.84 GB"));
  CHECK(is_progress(" [2024-06-01 10:00:00] iteration       10/    5000 | consumed samples:          80 | elapsed time per iteration (ms): 812.3 | learning rate: 1.0E-05 | lm loss: 2.345E+00 |"));
  CHECK(is_progress("{'loss': 0.8123, 'grad_norm': 1.25, 'learning_rate': 4.9e-05, 'epoch': 0.12}"));
  CHECK(is_progress("epoch: 2 step: 100, loss is 0.6931"));
  CHECK(is_progress("INFO:     Application startup complete."));
  CHECK(is_progress("[2025-05-12 10:01:02 TP0] Decode batch. #running-req: 4, #token: 1024, token usage: 0.01, gen throughput (token/s): 85.3, #queue-req: 0"));
  CHECK(is_progress("{ Epoch:[  1/  2], step:[    1/  100], loss: 2.345, per_step_time: 1234ms, lr: 1e-05, overflow cond: False, loss_scale: 1.0"));
  CHECK(is_progress("step:12 - actor/entropy:0.51 - actor/pg_loss:-0.013 - critic/score/mean:0.42"));
  CHECK(is_progress("{'loss': 1.2309, 'acc': 0.71, 'grad_norm': 3.2, 'learning_rate': 9.9e-05, 'memory(GiB)': 17.3, 'epoch': 0.05, 'global_step/max_steps': '5/100'}"));
  CHECK(is_progress("Prompt: 'The future of AI is', Generated text: \" in the hands of the people who will build it.\""));
  CHECK_FALSE(is_progress("[2026-01-15 13:56:49] [ERROR] KV cache allocation failed"));
  CHECK_FALSE(is_progress("iteration 19 failed: loss scale overflow"));
  CHECK_FALSE(is_progress("ERROR:    Application startup failed. Exiting."));
  CHECK_FALSE(is_progress("step 3: skipped"));
}

TEST_CASE("sniff: error-level text and healthy progress lines are job output; prose is not", "[job][text_forms][sniff]") {
  SniffResult r = sniff_content(
      "Error response from daemon: failed to create task for container: OCI runtime create failed: exit status 25\n"
      "failed to mount src: /usr/local/bin/npu-smi.failed to setup container.: unknown\n"
      "[root@bogon engine-service]#\n",
      true);
  CHECK(r.kind == SourceKind::python_log);
  CHECK_THAT(r.reason, Catch::Contains("text log of unknown shape: 2 error-level lines"));
  r = sniff_content("hello\nERROR:root:device 0 failed\nbye\n", true);
  CHECK(r.kind == SourceKind::python_log);
  r = sniff_content(
      "[09/10 10:38:03 lb.engine.trainer]: Starting training from iteration 0\n"
      "[09/10 10:40:56 lb.utils.events]:  eta: 21:00:38  iteration: 19/10000  consumed_samples: 80  total_loss: 9.895  lr: 1.50e-04\n",
      true);
  CHECK(r.kind == SourceKind::python_log);
  CHECK_THAT(r.reason, Catch::Contains("progress lines"));
  // Near misses: one failure word in prose among plain lines; a Markdown document quoting
  // error lines; a shopping list.
  CHECK(sniff_content("the plan\nwe tried twice\nit failed: twice\nthen rested\nand ate\n", true).kind == SourceKind::unknown);
  CHECK(sniff_content("# A ticket\n\n## What failed\nError: x failed: y\nfailed to mount: z\n", true).kind == SourceKind::unknown);
  CHECK(sniff_content("shopping list\nmilk\neggs\n", true).kind == SourceKind::unknown);
}

TEST_CASE("error text lines are unexplained errors with the codes they name", "[job][text_forms]") {
  // tests/data/real/alphafold-1073-ascend-docker-prestart-hook-mount-npu-smi/output.txt
  auto p = parse_python_text(
      "Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 25\n"
      "failed to mount src: /usr/local/bin/npu-smi.failed to mount dev.failed to setup container.: unknown\n"
      "[root@bogon engine-service]#\n");
  auto ev = text_events(p.facts);
  REQUIRE(ev.size() == 2);
  CHECK(ev[0]->evidence.line == 1);
  CHECK(ev[1]->call == "failed to mount src: /usr/local/bin/npu-smi.failed to mount dev.failed to setup container.: unknown");
  CHECK(unexplained(p.facts).size() == 1);
  // A catalogue code anywhere in such a line is the group's code.
  p = parse_python_text("call into the store failed: aclrtMallocHost code=107002\n");
  ev = text_events(p.facts);
  REQUIRE(ev.size() == 1);
  CHECK(ev[0]->code == "107002");
  // The spdlog-style store log (knowledge/error-levels.tsv bracket_time_letter): its time,
  // module, pid and code; its [I] and [W] lines raise nothing.
  p = parse_python_text(kUcm);
  std::vector<const JobEvent*> lv;
  for (const auto& e : p.facts.python.job_events)
    if (e.kind == JobEventKind::level_line) lv.push_back(&e);
  REQUIRE(lv.size() == 1);
  CHECK(lv[0]->code == "107002");
  CHECK(lv[0]->pid == 380106);
  CHECK(lv[0]->component == "UCMNFSSTORE");
  CHECK(lv[0]->evidence.line == 2);
  auto f = unexplained(p.facts);
  REQUIRE(f.size() == 1);
  CHECK_THAT(f[0].observed, Catch::Contains("107002"));
  // A progress line is a known shape and no error.
  p = parse_python_text("[2026-01-15 13:56:49 DP0 TP0] Memory pool end. avail mem=11.85 GB\n");
  CHECK(text_events(p.facts).empty());
  CHECK(p.stats.lines_recognised == 1);
}

TEST_CASE("an error line followed by a logged successful fallback is handled, not unexplained", "[job][text_forms][handled]") {
  constexpr std::string_view kHandled =
      "ERROR 03-02 10:11:12 [kernels.py:40] Failed to load the fused attention kernel: libfa.so: cannot open shared object file\n"
      "INFO 03-02 10:11:12 [kernels.py:44] Falling back to the math attention implementation.\n";
  auto p = parse_python_text(kHandled);
  CHECK(handled_hits(p.facts) == 2);  // the fallback line and the error line it handled
  CHECK(unexplained(p.facts).empty());
  // With a traceback between them (logging.exception): the ERROR record and the exception.
  auto q = parse_python_text(
      "ERROR 03-02 10:11:12 [kernels.py:40] Failed to load the fused kernel\n"
      "Traceback (most recent call last):\n"
      "  File \"kernels.py\", line 38, in load\n"
      "    import fused\n"
      "ModuleNotFoundError: No module named 'fused'\n"
      "INFO 03-02 10:11:12 [kernels.py:44] using the reference kernel instead\n");
  CHECK(handled_hits(q.facts) == 3);
  CHECK(unexplained(q.facts).empty());
  // Near misses: the fallback too far after the error; in another process's stream.
  std::string far = "ERROR 03-02 10:11:12 [kernels.py:40] Failed to load the fused attention kernel\n";
  for (int i = 0; i < 8; ++i) far += "INFO 03-02 10:11:12 [model.py:1] loading layer\n";
  far += "INFO 03-02 10:11:13 [kernels.py:44] Falling back to the math attention implementation.\n";
  p = parse_python_text(far);
  CHECK(handled_hits(p.facts) == 1);
  CHECK(unexplained(p.facts).size() == 1);
  p = parse_python_text(
      "[rank0]: ERROR 03-02 10:11:12 [kernels.py:40] Failed to load the fused attention kernel\n"
      "[rank1]: INFO 03-02 10:11:12 [kernels.py:44] Falling back to the math attention implementation.\n");
  CHECK(unexplained(p.facts).size() == 1);
}

// The eleventh first-sight batch (tests/data/real/README.md): forms the corpus met there.
TEST_CASE("sniff: a tagged [ACL ERROR] line, CANN's reason text, a flattened traceback; installer and MindIE start-up are healthy",
          "[job][text_forms][sniff]") {
  // sherpa-onnx-3076: the program's prints, then the ACL application's error print
  SniffResult r = sniff_content(
      "重点呢想谈三个问题首先呢就是这一轮全球金融动荡表现\n0.799598217010498\n"
      "[WARN] exception_cb deviceId:0 streamId:8 taskId:1275 failed:500002\n"
      "[ACL ERROR] EZ9999: Inner Error!\n",
      true);
  CHECK(r.kind == SourceKind::python_log);
  CHECK_THAT(r.reason, Catch::Contains("text log of unknown shape"));
  auto p = parse_python_text("0.799598217010498\n[ACL ERROR] EZ9999: Inner Error!\n");
  auto f = unexplained(p.facts);
  REQUIRE(f.size() == 1);
  CHECK_THAT(f[0].evidence.at(0).excerpt, Catch::Contains("EZ9999"));
  // llamafactory-8514: one indented line of CANN's reason text, no level
  CHECK(is_error("        The argument is invalid.Reason: rtGetDevMsg execute failed, reason=[context pointer null]"));
  CHECK_FALSE(is_error("rtGetDevMsg execute success, reason=[none]"));
  // pytorch docs commonqa 0009: a traceback a page joined into one line
  CHECK(is_error("Error in atexit._run_exitfuncs: Traceback (most recent call last): File \"/root/x/torch/__init__.py\", "
                 "line 429, in _npu_shutdown torch._C._npu_shutdown() RuntimeError"));
  CHECK_FALSE(is_error("Traceback (most recent call last):"));
  // huaweicloud CCE FAQ 00494: the driver installer's console is a healthy run, its WARNING is not progress
  CHECK(is_progress("  [Driver] [2025-04-17 09:39:23] [INFO]driver install type: Direct"));
  CHECK_FALSE(is_progress("  [Driver] [2025-04-17 09:39:16] [WARNING]Do not power off or restart the system during the installation/upgrade"));
  r = sniff_content(
      "  Verifying archive integrity...  100%   SHA256 checksums are OK. All good.\n"
      "  [Driver] [2025-04-17 09:39:16] [INFO]Start time: 2025-04-17 09:39:16\n"
      "  [Driver] [2025-04-17 09:39:16] [WARNING]Do not power off or restart the system during the installation/upgrade\n"
      "  [Driver] [2025-04-17 09:39:23] [INFO]upgradePercentage:10%\n",
      true);
  CHECK(r.kind == SourceKind::python_log);
  CHECK_THAT(r.reason, Catch::Contains("progress"));
  // hiascend forum 02111201427162926575: MindIE's configuration manager at start-up
  CHECK(is_progress("[ConfigManager::InitConfigManager] Successfully init config manager"));
  CHECK_FALSE(is_progress("[ConfigManager::InitConfigManager] Failed to init config manager"));
}

TEST_CASE("an error line that says it can be ignored is benign, not unexplained", "[job][text_forms][handled]") {
  // tests/data/real/ascend-pytorch-108-torch-npu-memory-pool-error-log-ignorable-healthy
  auto p = parse_python_text(
      "torch_npu.memory: [ERROR] [269128] Get a block from the existing pool failed. Try to free cached blocks and "
      "reallocate. This error log can be ignored.\n");
  size_t benign = 0;
  for (const auto& h : p.facts.logs.signature_hits) benign += h.id == "job/declared-ignorable";
  CHECK(benign == 1);
  CHECK(unexplained(p.facts).empty());
  // Near miss: the same line saying it cannot be ignored stays an unexplained error.
  auto q = parse_python_text("torch_npu.memory: [ERROR] [269128] Get a block failed. This error cannot be ignored.\n");
  CHECK(unexplained(q.facts).size() == 1);
}
