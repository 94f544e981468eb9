// device-exception on in-memory facts: one positive and the negatives for each kind.
#include <catch2/catch.hpp>

#include "correlator/analyses/device_exception.h"

#include "analysis_test_support.h"
#include "python_test_util.h"

using namespace triage;

namespace {

ErrorCodeFact code(std::string c, int64_t pid, ErrorCodeForm form = ErrorCodeForm::err_code) {
  ErrorCodeFact f;
  f.code = std::move(c);
  f.form = form;
  f.origin.pid = pid;
  f.module = "RUNTIME";
  f.evidence = make_evidence("plog-1.log", 10, 0, "ErrCode=" + f.code);
  return f;
}

SignatureHit hit(std::string id, int64_t pid, std::vector<std::pair<std::string, std::string>> caps = {}) {
  SignatureHit h;
  h.id = std::move(id);
  h.pid = pid;
  h.captures = std::move(caps);
  h.evidence = make_evidence("plog-1.log", 20, 0, h.id);
  return h;
}

std::vector<Finding> run(const BundleFacts& b) { return testing::run_analysis(analyze_device_exception, b); }

const Finding* find(const std::vector<Finding>& v, std::string_view id) {
  return testing::find_finding(v, id);
}

}  // namespace

TEST_CASE("device-exception: each code family gives its own kind", "[device_exception]") {
  struct Case {
    const char* code;
    const char* id;
  };
  for (auto c : {Case{"507014", "device-exception/aicore-timeout"},
                 Case{"0x26", "device-exception/aicore-exception"},
                 Case{"507035", "device-exception/aivector-exception"},
                 Case{"0x30", "device-exception/aivector-timeout"},
                 Case{"507018", "device-exception/aicpu-exception"},
                 Case{"EI0002", "device-exception/hccl-timeout"},
                 Case{"507048", "device-exception/hccl-timeout"},
                 Case{"507010", "device-exception/heartbeat-lost"},
                 Case{"507899", "device-exception/driver-internal"},
                 Case{"507054", "device-exception/hbm-ecc"}}) {
    BundleFacts b;
    b.logs.error_codes.push_back(code(c.code, 42));
    auto out = run(b);
    INFO(c.code);
    REQUIRE(out.size() == 1);
    CHECK(out[0].id == c.id);
    CHECK(*out[0].find_value("codes") == c.code);
    CHECK(*out[0].find_value("pid") == "42");
    CHECK_FALSE(out[0].does_not_prove.empty());
    CHECK_FALSE(out[0].next_checks.empty());
    CHECK(out[0].evidence.size() == 1);
  }
}

TEST_CASE("device-exception: the aicore chain of one process is one finding with kernel and errorStr",
          "[device_exception]") {
  BundleFacts b;
  b.logs.error_codes.push_back(code("0x26", 4028848, ErrorCodeForm::ret_code));
  b.logs.error_codes.push_back(code("507015", 4028848));
  b.logs.signature_hits.push_back(hit("device-exception/aicore-error", 4028848, {{"unit2", "aicore"}}));
  b.logs.signature_hits.push_back(hit("device-exception/fault-kernel", 4028848, {{"kernel_name", "_Z12error_kernelPDhS_S_"}}));
  b.logs.signature_hits.push_back(hit("device-exception/error-str", 4028848,
                                      {{"error_str", "The CUBE instruction parameter is invalid"}}));
  auto out = run(b);
  REQUIRE(out.size() == 1);
  const Finding& f = out[0];
  CHECK(f.id == "device-exception/aicore-exception");
  CHECK(f.severity == Severity::error);
  CHECK(f.confidence == Confidence::high);
  CHECK(*f.find_value("count") == "3");
  CHECK(*f.find_value("kernel_name") == "_Z12error_kernelPDhS_S_");
  CHECK(*f.find_value("error_str") == "The CUBE instruction parameter is invalid");
  CHECK(f.observed.find("ACL_ERROR_RT_AICORE_EXCEPTION") != std::string::npos);  // from knowledge
}

TEST_CASE("device-exception: signatures alone (aivector, heartbeat, HCCL, HBM ECC)", "[device_exception]") {
  BundleFacts b;
  b.logs.signature_hits.push_back(hit("device-exception/aicore-error", 3813, {{"unit", "aivector"}}));
  b.logs.signature_hits.push_back(hit("device-lost/heartbeat", 7));
  b.logs.signature_hits.push_back(hit("hccl/task-timeout", 8));
  b.logs.signature_hits.push_back(hit("device-exception/hbm-ecc-event", 0, {{"event_id", "0x80E01809"}}));
  b.logs.signature_hits.back().pid.reset();
  auto out = run(b);
  CHECK(out.size() == 4);
  CHECK(find(out, "device-exception/aivector-exception"));
  REQUIRE(find(out, "device-exception/heartbeat-lost"));
  CHECK(find(out, "device-exception/heartbeat-lost")->severity == Severity::critical);
  CHECK(find(out, "device-exception/hccl-timeout"));
  REQUIRE(find(out, "device-exception/hbm-ecc"));
  CHECK(*find(out, "device-exception/hbm-ecc")->find_value("codes") == "0x80E01809");
}

TEST_CASE("device-exception: negatives (task timeout, device open, stall, benign hits)", "[device_exception]") {
  BundleFacts b;
  b.logs.error_codes.push_back(code("107020", 48213));   // task timeout: the stall analysis's
  b.logs.error_codes.push_back(code("507033", 5127));    // device open: probe-results / binding
  b.logs.error_codes.push_back(code("EZ9999", 5127, ErrorCodeForm::message_code));
  b.logs.signature_hits.push_back(hit("device-exception/fault-kernel", 48213, {{"kernel_name", "te_dropout"}}));
  b.logs.signature_hits.push_back(hit("stream-stall/three-minute-report", 48213));
  NpuHealth ok;
  ok.status = "OK";
  ok.npu = 0, ok.chip = 0;
  b.devices.health.push_back(ok);
  CHECK(run(b).empty());
}

TEST_CASE("device-exception/health: -t health and the info table", "[device_exception]") {
  BundleFacts b;
  NpuHealth h;
  h.status = "Alarm";
  h.npu = 3, h.chip = 0;
  h.error_code = "80E01809";
  h.evidence = make_evidence("ascend/npu-smi-health-3-0.txt", 1, 0, "Health Status : Alarm");
  b.devices.health.push_back(h);
  NpuSmiInfo info;
  NpuChipRow row;
  row.npu = 3, row.chip = 0, row.health = "Alarm";
  info.chips.push_back(row);  // the same chip: reported once
  row.npu = 5, row.health = "Warning";
  info.chips.push_back(row);
  b.devices.info = info;
  auto out = run(b);
  REQUIRE(out.size() == 2);
  CHECK(out[0].id == "device-exception/health");
  CHECK(*out[0].find_value("health") == "Alarm");
  CHECK(*out[0].find_value("error_code") == "80E01809");
  CHECK(out[0].severity == Severity::error);
  CHECK(*out[1].find_value("npu") == "5");
  CHECK(out[1].severity == Severity::warning);
}

TEST_CASE("device-exception: torch_npu's NPU warning names its code in the process of the report after it",
          "[device_exception]") {
  // ascend-pytorch-docs-hccl-timeout-ei0002-heartbeat-lost, lines 1 to 4 (line 4 cut)
  const std::string warning =
      "[W compiler_depend.ts:487] Warning: NPU warning, error code is 507048[Error]: \n"
      "[Error]: The execution of the internal task times out. \n"
      "        Rectify the fault based on the error information in the ascend log.\n";
  const std::string report =
      "EI0002: [PID: 7277] 2024-11-28-11:59:30.645.648 The wait execution of the Notify register times out.\n";
  auto out = run(pytest::parse_python_text(warning + report).facts);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "device-exception/hccl-timeout");
  CHECK(*out[0].find_value("pid") == "7277");
  CHECK(*out[0].find_value("codes") == "507048");
  REQUIRE(out[0].evidence.size() == 2);
  CHECK((out[0].evidence[0].line == 1 || out[0].evidence[1].line == 1));
  // Near misses: a report far after the warning is not its process; a code of no kind is no finding.
  std::string far = warning;
  for (int i = 0; i < 6; ++i) far += "step " + std::to_string(i) + " done\n";
  auto apart = run(pytest::parse_python_text(far + report).facts);
  REQUIRE(apart.size() == 2);
  CHECK(*apart[0].find_value("pid") != *apart[1].find_value("pid"));
  auto other = run(pytest::parse_python_text("[W compiler_depend.ts:487] Warning: NPU warning, error code is 100000\n").facts);
  CHECK(other.empty());
}
