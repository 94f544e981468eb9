// knowledge/error-levels.tsv and its samples (issue 36, "an error-level line is never
// silent"): the built-in files pass their check; verbatim corpus lines are matched with their
// groups; near misses (a count, a key, prose, a quoted level, lower levels) match no form; a
// broken row or sample is named by file and line.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "knowledge/error_levels.h"
#include "knowledge/knowledge.h"

using namespace triage;

namespace {

std::string builtin(std::string_view name) {
  for (const auto& f : builtin_knowledge_files())
    if (f.name == name) return f.content;
  return {};
}

bool any_contains(const std::vector<std::string>& v, std::string_view s) {
  for (const auto& x : v)
    if (x.find(s) != std::string::npos) return true;
  return false;
}

struct Got {
  bool matched = false;
  std::string form, level, message, time, pid, module, where;
};

Got match(std::string_view line) {
  ErrorLevelMatch m;
  Got g;
  const ErrorLevels& levels = error_levels_for("");
  g.matched = levels.match(line, m);
  CHECK((levels.first(line) >= 0) == g.matched);
  CHECK(levels.any(line) == g.matched);
  if (!g.matched) return g;
  g.form = m.form->id;
  g.level = std::string(m.level);
  g.message = std::string(m.message);
  g.time = std::string(m.time);
  g.pid = std::string(m.pid);
  g.module = std::string(m.module);
  g.where = std::string(m.where);
  return g;
}

}  // namespace

TEST_CASE("error levels: the built-in forms and samples pass their check", "[error_levels]") {
  size_t samples = 0;
  CHECK(check_error_levels(builtin(kErrorLevelsFile), std::string(kErrorLevelsFile), samples).empty());
  CHECK(samples >= 2 * error_levels_for("").forms.size());
  CHECK(check_error_levels(builtin(kErrorLevelSamplesFile), std::string(kErrorLevelSamplesFile), samples).empty());
  std::vector<std::string> errors;
  parse_error_levels(builtin(kErrorLevelsFile), "error-levels.tsv", errors);
  CHECK(errors.empty());
}

TEST_CASE("error levels: verbatim lines of the corpus with their level, time, pid and module", "[error_levels]") {
  // tests/data/real/vllm-omni-2898-stage-prefixed-rtgetdevmsg-null-context (after `[Stage-1] `)
  Got v = match("ERROR 04-18 15:43:36 [multiproc_executor.py:800] WorkerProc failed to start.");
  CHECK(v.form == "vllm");
  CHECK(v.level == "ERROR");
  CHECK(v.time == "04-18 15:43:36");
  CHECK(v.where == "multiproc_executor.py:800");
  CHECK(v.message == "WorkerProc failed to start.");
  // tests/data/real/verl-2012-ray-tbe-subprocess-main-process-disappeared (after the Ray prefix)
  Got t = match("[ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!");
  CHECK(t.form == "bracket");
  CHECK(t.module.empty());
  CHECK(t.message == "TBE Subprocess[task_distribute] raise error[], main process disappeared!");
  // tests/data/real/mindact-1983-msrun-scheduler-grep-timeout-node
  Got m = match("[ERROR] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:38.720.000 "
                "[mindspore/parallel/cluster/process_entity/_api.py:331] Scheduler process 162146 exit with exception.");
  CHECK(m.form == "bracket");
  CHECK(m.module == "ME");
  CHECK(m.pid == "162078");
  CHECK(m.time == "2025-03-10-09:40:38.720.000");
  CHECK(m.where == "mindspore/parallel/cluster/process_entity/_api.py:331");
  CHECK(m.message == "Scheduler process 162146 exit with exception.");
  // tests/data/real/gpustack-3284-dcmi-library-not-found
  Got d = match("2025-11-13 19:10:42.153018+08:00 - gpustack_runtime.detector.ascend - ERROR - Failed to initialize DCMI");
  CHECK(d.form == "python_dashes");
  CHECK(d.module == "gpustack_runtime.detector.ascend");
  CHECK(d.time == "2025-11-13 19:10:42.153018+08:00");
  CHECK(d.message == "Failed to initialize DCMI");
  // tests/data/real/vllm-ascend-1007-ee1001-memcpy: vLLM's older form, no bracket
  Got o = match("ERROR 05-29 20:52:26 worker_base.py:581] Since the operator is called asynchronously, x");
  CHECK(o.form == "vllm");
  CHECK(o.where == "worker_base.py:581");
  // Python logging's basic format, glog, CRITICAL and FATAL
  Got b = match("ERROR:root:device 0 failed to initialise");
  CHECK(b.form == "python_basic");
  CHECK(b.module == "root");
  CHECK(b.message == "device 0 failed to initialise");
  Got g = match("E0708 15:01:14.136582 96875 init.cc:236] Fail to open library: /usr/local/lib/libascend_hal.so");
  CHECK(g.form == "glog");
  CHECK(g.level == "E");
  CHECK(g.pid.empty());  // glog prints a thread id
  CHECK(match("CRITICAL 04-18 15:43:36 [core.py:1] engine died").matched);
  CHECK(match("F0708 15:01:14.136582 96875 init.cc:236] Check failed: ok").level == "F");
  CHECK(match("[CRITICAL] DEVICE(17381,ffff890145d0,python):2022-12-01-03:02:29.011.280 "
              "[mindspore/ccsrc/runtime/device/kernel_runtime.cc:124] LockRuntime] The pointer[stream] is null.")
            .module == "DEVICE");
}

TEST_CASE("error levels: near misses match no form", "[error_levels]") {
  const char* lines[] = {
      "ERRORS: 0",
      "error_count=3",
      "Total errors: 0, warnings: 2",
      "An error occurred while saving the checkpoint; retrying",
      "error: RPC failed; curl 56 GnuTLS recv error",  // lower case: no logger level
      // an INFO line that quotes an ERROR record
      "INFO 04-18 15:43:36 [api_server.py:12] stage 1 replied \"[ERROR] WorkerProc failed to start.\"",
      "INFO: got \"[ERROR] TBE Subprocess[task_distribute] raise error[]\" from the worker",
      "2025-02-18 12:38:05,036 INFO worker.py:1841 -- saw [ERROR] in the last line",
      // lower levels of every form
      "WARNING 04-18 15:43:36 [multiproc_executor.py:749] Parent process exited, terminating worker",
      "[WARNING] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:12.444.000 "
      "[mindspore/parallel/cluster/process_entity/_api.py:318] There's worker exits with exception, kill all other workers.",
      "W0708 15:01:14.136582 96875 init.cc:236] retrying",
      "WARNING:root:device 0 is slow",
      "2026-09-04 09:45:03,604 - det - WARNING - epoch 0 iter 0 is slow",
      "[ERRORS] 3 lines skipped",
      "ERROR_LOG enabled",
      "   [ERROR] indented: a quoted record in a message body",
  };
  for (const char* l : lines) {
    INFO(l);
    Got g = match(l);
    CHECK_FALSE(g.matched);
    if (g.matched) INFO(g.form);
  }
}

TEST_CASE("error levels: a broken row or sample is named", "[error_levels]") {
  std::string forms = builtin(kErrorLevelsFile);
  forms += "nomsg\tx\t^(?P<level>ERROR) .*\tsomewhere\n";
  forms += "unanchored\tx\t(?P<level>ERROR) (?P<msg>.*)\tsomewhere\n";
  forms += "oddgroup\tx\t^(?P<level>ERROR) (?P<who>\\w+) (?P<msg>.*)\tsomewhere\n";
  forms += "vllm\tx\t^(?P<level>ERROR) (?P<msg>.*)\tsomewhere\n";
  forms += "broken\tx\t^(?P<level>ERROR (?P<msg>.*)\tsomewhere\n";
  size_t samples = 0;
  auto problems = check_error_levels(forms, "error-levels.tsv", samples);
  CHECK(any_contains(problems, "needs the groups (?P<level>...) and (?P<msg>...)"));
  CHECK(any_contains(problems, "must start with ^"));
  CHECK(any_contains(problems, "unknown group 'who'"));
  CHECK(any_contains(problems, "form 'vllm' twice"));
  CHECK(any_contains(problems, "pattern does not compile"));

  std::string bad = builtin(kErrorLevelSamplesFile);
  bad += "glog\tmatch\tjust some words\n";              // matches nothing
  bad += "bracket\tnear_miss\t[ERROR] HCCL(1,x): y\n";  // matches a form
  bad += "glog\tmatch\t[ERROR] TBE x\n";               // another form matches it first
  bad += "nothing\tmatch\tx\n";                         // no such form
  problems = check_error_levels(bad, "error-level-samples.tsv", samples);
  CHECK(any_contains(problems, "no form matches this sample of glog"));
  CHECK(any_contains(problems, "form bracket matches this near miss of bracket"));
  CHECK(any_contains(problems, "form bracket matches this sample of glog first"));
  CHECK(any_contains(problems, "no form 'nothing'"));
}
