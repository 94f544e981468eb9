// Probe parsers: the contract's JSON and the output files, on the samples' shapes.
#include <catch2/catch.hpp>

#include "model/host_facts.h"
#include "model_test_support.h"
#include "parsers/collector/probe_parsers.h"

using namespace triage;
using triage::test::run_kind;

namespace {

const char* kTimedOut =
    R"({"name":"rand","argv":["timeout","-k","5","60","python3","-I","/tmp/x/probe.py","rand","--device","1"],"device":1,"python":"/usr/bin/python3","torch_npu_version":"2.9.0.post6","started_utc":"2026-09-04T01:57:11.207Z","rc":124,"timed_out":true,"duration_ms":60012,"stdout_file":"probes/rand.stdout","stderr_file":"probes/rand.stderr"})"
    "\n";

const char* kStderr507033 =
    "Traceback (most recent call last):\n"
    "  File \"/tmp/ascend-collect.Pq81Zr/probe.py\", line 36, in <module>\n"
    "    x = torch.rand((1024,), device=dev)\n"
    "RuntimeError: SetDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:60 NPU function error: "
    "c10_npu::acl::AclrtSetDevice(device), error code is 507033\n"
    "[ERROR] 2026-09-04-10:32:59 (PID:6326, Device:0, RankID:-1) ERR00100 PTA call acl api failed\n"
    "[Error]: Failed to start the device. \n";

}  // namespace

TEST_CASE("probe JSON: contract fields", "[probe]") {
  BundleFacts facts;
  auto stats = run_kind(SourceKind::probe_json, "probes/rand.json", kTimedOut, facts);
  REQUIRE(facts.devices.probes.size() == 1);
  const auto& p = facts.devices.probes[0];
  CHECK(p.name == "rand");
  CHECK(p.has_json);
  CHECK(p.device == 1);
  CHECK(p.rc == 124);
  CHECK(p.timed_out == true);
  CHECK(p.duration_ms == 60012);
  CHECK(p.torch_npu_version == "2.9.0.post6");
  CHECK(p.started_utc_us == int64_t{1788487031207000});
  CHECK(p.evidence.entry == "bundle/probes/rand.json");
  CHECK(stats.malformed == 0);
}

TEST_CASE("probe JSON: damaged or contradicting name is malformed", "[probe]") {
  BundleFacts facts;
  auto stats = run_kind(SourceKind::probe_json, "probes/rand.json", "{\"name\":\"rand\",\"rc\":", facts);
  CHECK(stats.malformed == 1);
  CHECK_FALSE(facts.devices.probes[0].rc);
  CHECK_FALSE(facts.devices.probes[0].has_json);
  BundleFacts other;
  auto s2 = run_kind(SourceKind::probe_json, "probes/rand.json", "{\"name\":\"randn\",\"rc\":0}\n", other);
  CHECK(s2.malformed == 1);
}

TEST_CASE("probe stderr: error code, exception and [Error] text; stdout value", "[probe]") {
  BundleFacts facts;
  run_kind(SourceKind::probe_stderr, "probes/rand.stderr", kStderr507033, facts);
  run_kind(SourceKind::probe_stdout, "probes/matmul.stdout", "256.0\n", facts);
  run_kind(SourceKind::probe_status, "probes/randn.status", "Name:\tpython3\n", facts);
  run_kind(SourceKind::probe_threads, "probes/randn.threads.txt", "sampled_uptime=1.0\n", facts);
  const auto& rand = facts.devices.probe("rand");
  CHECK(rand.error_code == 507033);
  CHECK(rand.exception_line.rfind("RuntimeError: SetDevice", 0) == 0);
  CHECK(rand.error_text == "Failed to start the device.");
  CHECK(rand.stderr_evidence.line == 4);
  CHECK(facts.devices.probe("matmul").stdout_first_line == "256.0");
  CHECK(facts.devices.probe("randn").has_status);
  CHECK(facts.devices.probe("randn").has_threads);
  CHECK(probe_name_of("probes/randint.threads.txt") == "randint");
  CHECK(probe_name_of("probes/README") == "");
}
