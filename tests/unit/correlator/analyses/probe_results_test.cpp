// probe-results on in-memory probe sets, and end to end on the samples.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "ingest/load.h"
#include "correlator/correlate.h"
#include "correlator/analyses/probe_results.h"

#include "analysis_test_support.h"

using namespace triage;

namespace {

ProbeResult probe(std::string name, int64_t rc, bool timed_out, int64_t start, int64_t device = 1,
                  std::optional<int64_t> code = std::nullopt) {
  ProbeResult p;
  p.name = std::move(name);
  p.has_json = true;
  p.rc = rc;
  p.timed_out = timed_out;
  p.started_utc_us = start;
  p.device = device;
  p.duration_ms = timed_out ? 60000 : 4000;
  p.error_code = code;
  p.evidence = make_evidence("probes/" + p.name + ".json", 1, 0, "{}");
  return p;
}

std::vector<Finding> run(const BundleFacts& b) { return testing::run_analysis(analyze_probe_results, b); }

const Finding* find(const std::vector<Finding>& v, std::string_view id) {
  return testing::find_finding(v, id);
}

}  // namespace

TEST_CASE("probe-results: RNG probes time out while the others pass", "[probe_results]") {
  BundleFacts b;
  b.devices.probes = {probe("ones_copyback", 0, false, 1), probe("cpu_rand_h2d", 0, false, 2),
                      probe("matmul", 0, false, 3), probe("randn", 124, true, 5),
                      probe("rand", 124, true, 4), probe("randint", 124, true, 6)};
  auto out = run(b);
  REQUIRE(out.size() == 1);
  const Finding& f = out[0];
  CHECK(f.id == "probe-results/reproduces-outside-model");
  CHECK(f.severity == Severity::error);
  CHECK(f.confidence == Confidence::high);
  CHECK(*f.find_value("passed") == "ones_copyback, cpu_rand_h2d, matmul");
  CHECK(*f.find_value("timed_out") == "rand, randn, randint");
  CHECK(*f.find_value("rng_only") == "1");
  CHECK(*f.find_value("independent_failure") == "rand");
  CHECK(*f.find_value("dependent_failures") == "randn, randint");
  CHECK(f.does_not_prove.find("does not prove an RNG defect") != std::string::npos);
  CHECK(f.does_not_prove.find("does not make the device unresponsive") != std::string::npos);
}

TEST_CASE("probe-results: a non-RNG failure is not called an RNG matter", "[probe_results]") {
  BundleFacts b;
  b.devices.probes = {probe("ones_copyback", 0, false, 1), probe("matmul", 1, false, 2, 1, 507015)};
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(*out[0].find_value("rng_only") == "0");
  CHECK(out[0].does_not_prove.find("RNG") == std::string::npos);
  CHECK(*out[0].find_value("dependent_failures") == "");
}

TEST_CASE("probe-results: all fail fast with 507033 -> no usable device", "[probe_results]") {
  BundleFacts b;
  for (int i = 0; i < 6; ++i) b.devices.probes.push_back(probe(fmt::format("p{}", i), 1, false, i, 0, 507033));
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "probe-results/no-usable-device");
  CHECK(out[0].does_not_prove.find("never reached the device") != std::string::npos);
  // One probe with another code: not "no usable device".
  b.devices.probes[2].error_code = 507015;
  CHECK(run(b)[0].id == "probe-results/reproduces-outside-model");
}

TEST_CASE("probe-results: all pass is info; no probes is nothing", "[probe_results]") {
  BundleFacts b;
  CHECK(run(b).empty());
  b.devices.probes = {probe("ones_copyback", 0, false, 1), probe("rand", 0, false, 2)};
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "probe-results/all-pass");
  CHECK(out[0].severity == Severity::info);
  // An unreadable outcome (rc and timed_out missing) does not count as a pass.
  b.devices.probes[1].rc.reset();
  b.devices.probes[1].timed_out.reset();
  CHECK(run(b).empty());
}

TEST_CASE("probe-results: AICore idle in every sample of a stalled device", "[probe_results]") {
  BundleFacts b;
  for (int i = 0; i < 3; ++i) {
    StallReport s;
    s.origin.pid = 48213, s.stream_id = 47, s.task_id = 1280, s.sq_head = 500, s.device_id = 0;
    b.logs.stalls.push_back(s);
  }
  NpuUsageSample u;
  u.npu = 0, u.chip = 0, u.aicore_pct = 0;
  b.devices.usages = {u, u};
  u.npu = 1;
  u.aicore_pct = 80;  // another device: ignored
  b.devices.usages.push_back(u);
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "probe-results/aicore-idle-during-stall");
  CHECK(*out[0].find_value("samples") == "2");
  // A stalled process that is gone at collection is not what the samples saw.
  b.processes.by_pid[31544].pid = 31544;
  CHECK(run(b).empty());
  b.processes.by_pid[48213].pid = 48213;
  REQUIRE(run(b).size() == 1);
  // A moving head is no stall; a busy core is no support.
  b.logs.stalls[1].sq_head = 600;
  b.logs.stalls[2].sq_head = 700;
  CHECK(run(b).empty());
}

namespace {

Report analyze_sample(const std::string& name) {
  AnalyzeOptions options;
  auto loaded = load_evidence({std::string(SAMPLES_DIR) + "/" + name}, options);
  REQUIRE(loaded.errors.empty());
  return correlate(loaded.evidence, options);
}

bool ours(const Finding& f) {
  for (std::string_view p : {"device-exception", "kernel-driver-error", "localization-mode", "probe-results"})
    if (f.id.rfind(p, 0) == 0) return true;
  return false;
}

}  // namespace

TEST_CASE("samples: before-reboot reads as in the primer", "[probe_results][samples]") {
  Report r = analyze_sample("incident-910b-before-reboot");
  const Finding* probes = find(r.findings, "probe-results/reproduces-outside-model");
  REQUIRE(probes);
  CHECK(*probes->find_value("passed") == "ones_copyback, cpu_rand_h2d, matmul");
  CHECK(*probes->find_value("timed_out") == "rand, randn, randint");
  CHECK(*probes->find_value("device") == "1");
  CHECK(*probes->find_value("rng_only") == "1");
  CHECK(*probes->find_value("independent_failure") == "rand");
  CHECK(probes->does_not_prove.find("does not prove an RNG defect") != std::string::npos);
  CHECK_FALSE(find(r.findings, "probe-results/no-usable-device"));
  const Finding* idle = find(r.findings, "probe-results/aicore-idle-during-stall");
  REQUIRE(idle);
  CHECK(*idle->find_value("device") == "0");
  CHECK(*idle->find_value("samples") == "2");
  CHECK(idle->observed.find("pid 48213 stream 47") != std::string::npos);  // not the killed 31544
  const Finding* advice = find(r.findings, "localization-mode/advice");
  REQUIRE(advice);
  CHECK(*advice->find_value("pid") == "48213");
  bool amp = false;
  for (const auto& f : r.findings)
    if (f.id == "localization-mode/bool-argument" && *f.find_value("option") == "--amp") {
      amp = true;
      CHECK(f.severity == Severity::warning);
    }
  CHECK(amp);
  for (const auto& f : r.findings) {
    INFO(f.id);
    CHECK(f.id.rfind("device-exception", 0) != 0);  // 107020 is a task timeout, not a device fault
    CHECK(f.id != "kernel-driver-error");
  }
}

TEST_CASE("samples: after-reboot probes mean no usable device", "[probe_results][samples]") {
  Report r = analyze_sample("incident-910b-after-reboot");
  const Finding* probes = find(r.findings, "probe-results/no-usable-device");
  REQUIRE(probes);
  CHECK(*probes->find_value("failed") == "ones_copyback, cpu_rand_h2d, matmul, rand, randn, randint");
  CHECK(*probes->find_value("device") == "0");
  CHECK(probes->evidence.size() == 13);  // six JSONs, six stderr lines, npu-smi's failure
  CHECK(probes->observed.find("ret is -8005") != std::string::npos);
  CHECK_FALSE(find(r.findings, "probe-results/reproduces-outside-model"));
  for (const auto& f : r.findings) {
    INFO(f.id);
    CHECK(f.id.rfind("device-exception", 0) != 0);
    CHECK(f.id != "kernel-driver-error");  // the Unknown symbol lines belong to driver-binding
  }
}

TEST_CASE("samples: healthy has nothing at warning or above from these analyses", "[probe_results][samples]") {
  Report r = analyze_sample("healthy-first-step-compile");
  for (const auto& f : r.findings) {
    if (!ours(f)) continue;
    INFO(f.id << ": " << f.title);
    CHECK(f.severity == Severity::info);
  }
}
