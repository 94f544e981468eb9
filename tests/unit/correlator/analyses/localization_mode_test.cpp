// localization-mode on in-memory process facts.
#include <catch2/catch.hpp>

#include "correlator/analyses/localization_mode.h"

#include "analysis_test_support.h"

using namespace triage;

namespace {

ProcessInfo process(int64_t pid, std::vector<std::pair<std::string, std::string>> env,
                    std::vector<std::string> argv = {}) {
  ProcessInfo p;
  p.pid = pid;
  p.has_environ = true;
  p.environ = std::move(env);
  p.has_cmdline = !argv.empty();
  p.argv = std::move(argv);
  return p;
}

std::vector<Finding> run(const BundleFacts& b) { return testing::run_analysis(analyze_localization_mode, b); }

void stall(BundleFacts& b, int64_t pid) {
  StallReport s;
  s.origin.pid = pid;
  s.stream_id = 47;
  s.evidence = make_evidence("plog", 5, 0, "report three minutes timeout!");
  b.logs.stalls.push_back(s);
}

}  // namespace

TEST_CASE("localization-mode/active: timings are invalid", "[localization]") {
  BundleFacts b;
  b.processes.by_pid[7] = process(7, {{"ASCEND_LAUNCH_BLOCKING", "1"}, {"TASK_QUEUE_ENABLE", "0"}});
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "localization-mode/active");
  CHECK(out[0].severity == Severity::warning);
  CHECK(out[0].does_not_prove.find("not valid performance data") != std::string::npos);
  CHECK(*out[0].find_value("TASK_QUEUE_ENABLE") == "0");
}

TEST_CASE("localization-mode/advice: only for a process that hung without it", "[localization]") {
  BundleFacts b;
  b.processes.by_pid[48213] = process(48213, {{"TASK_QUEUE_ENABLE", "2"}});
  b.processes.by_pid[9] = process(9, {});  // a moving head is a slow step: nothing to advise
  stall(b, 48213);
  stall(b, 48213);
  stall(b, 9);
  stall(b, 9);
  b.logs.stalls.back().sq_head = 900;
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "localization-mode/advice");
  CHECK(out[0].severity == Severity::info);
  CHECK(*out[0].find_value("pid") == "48213");
  CHECK(*out[0].find_value("ASCEND_LAUNCH_BLOCKING") == "");
  CHECK(out[0].evidence.size() == 2);
  // ASCEND_LAUNCH_BLOCKING=0 is not localisation mode either; a shell's value does not count.
  BundleFacts c;
  c.processes.by_pid[5] = process(5, {{"ASCEND_LAUNCH_BLOCKING", "0"}, {"TASK_QUEUE_ENABLE", "0"}});
  StreamSyncTimeout t;
  t.origin.pid = 5;
  c.logs.sync_timeouts.push_back(t);
  auto out2 = run(c);
  REQUIRE(out2.size() == 1);
  CHECK(out2[0].id == "localization-mode/advice");
}

TEST_CASE("localization-mode/bool-argument: False/false warn, 0 informs, others pass", "[localization]") {
  BundleFacts b;
  b.processes.by_pid[1] = process(1, {}, {"python3", "train.py", "--workers", "0", "--batch-size", "1",
                                          "--amp", "False", "--no-pin-memory", "--pin-memory=false",
                                          "--local-rank=0", "--seed", "0", "--device", "npu:0"});
  auto out = run(b);
  REQUIRE(out.size() == 3);
  CHECK(out[0].id == "localization-mode/bool-argument");
  CHECK(*out[0].find_value("option") == "--workers");
  CHECK(out[0].severity == Severity::info);
  CHECK(*out[1].find_value("option") == "--amp");
  CHECK(*out[1].find_value("value") == "False");
  CHECK(out[1].severity == Severity::warning);
  CHECK(out[1].next_checks[0].find("Check that this took effect") == 0);
  CHECK(*out[2].find_value("option") == "--pin-memory");
}
