// slow-rank (issue 37): down-clocking only while busy, the temperature alarm, CPU contention;
// nothing on a healthy or idle host.
#include <catch2/catch.hpp>

#include <string>

#include "analysis_test_support.h"
#include "bundle_test_util.h"
#include "correlator/analyses/slow_rank.h"
#include "correlator/correlate.h"

using namespace triage;
using triage::testing::find_finding;
using triage::testing::run_analysis;

namespace {
NpuReading common(int64_t npu, int64_t usage, int64_t rated, int64_t cur, int64_t temp, int64_t k) {
  NpuReading r;
  r.command = "common";
  r.npu = npu, r.chip = 0, r.sample = k;
  r.aicore_pct = usage, r.rated_freq_mhz = rated, r.cur_freq_mhz = cur, r.temp_c = temp, r.power_w = 350.0;
  r.evidence = make_evidence("ascend/npu-smi-common-" + std::to_string(npu) + ".1.txt", 9, 0, "Aicore curFreq(MHZ) : 1200");
  r.temp_evidence = make_evidence("ascend/npu-smi-common-" + std::to_string(npu) + ".1.txt", 11, 0, "Temperature(C) : 1");
  return r;
}
}  // namespace

TEST_CASE("slow-rank: a busy chip below its rated clock; an idle one is not", "[slow]") {
  BundleFacts b;
  b.host = "node-a";
  b.load.readings.push_back(common(0, 95, 1800, 1800, 60, 1));  // busy at rated: fine
  b.load.readings.push_back(common(3, 98, 1800, 1200, 92, 1));  // busy, down-clocked
  b.load.readings.push_back(common(3, 97, 1800, 1300, 93, 2));
  b.load.readings.push_back(common(5, 0, 1800, 800, 46, 1));    // idle at 800: by design
  auto out = run_analysis(analyze_slow_rank, b);
  const Finding* f = find_finding(out, "slow-rank/aicore-downclocked");
  REQUIRE(f);
  CHECK(*f->find_value("npu") == "3");
  CHECK(*f->find_value("cur_freq_mhz") == "1200");
  CHECK(*f->find_value("samples_low") == "2");
  CHECK(f->severity == Severity::warning);
  CHECK(f->evidence.size() == 2);
  CHECK_FALSE(f->does_not_prove.empty());
  size_t n = 0;
  for (const auto& x : out) n += x.id == "slow-rank/aicore-downclocked";
  CHECK(n == 1);
  CHECK_FALSE(find_finding(out, "slow-rank/over-temperature"));
  CHECK_FALSE(find_finding(out, "slow-rank/cpu-contention"));
}

TEST_CASE("slow-rank: over-temperature at the alarm; CPU contention from PSI, load and switches", "[slow]") {
  BundleFacts b;
  b.load.readings.push_back(common(2, 10, 1800, 1800, 96, 1));
  CpuLoad c;
  c.load1 = 210.0, c.online_cpus = 192, c.psi_some_avg10 = 31.5;
  b.load.cpu = c;
  ProcessSched s;
  s.pid = 4242, s.voluntary = 1500, s.nonvoluntary = 9800;
  b.load.sched.push_back(s);
  ProcessSched quiet;  // few switches: says nothing
  quiet.pid = 4243, quiet.voluntary = 10, quiet.nonvoluntary = 90;
  b.load.sched.push_back(quiet);
  auto out = run_analysis(analyze_slow_rank, b);
  const Finding* t = find_finding(out, "slow-rank/over-temperature");
  REQUIRE(t);
  CHECK(*t->find_value("temp_c") == "96");
  CHECK(*t->find_value("alarm_c") == "95");
  const Finding* c2 = find_finding(out, "slow-rank/cpu-contention");
  REQUIRE(c2);
  CHECK(*c2->find_value("pids") == "4242");
  CHECK(c2->confidence == Confidence::medium);
  CHECK(c2->observed.find("31.50") != std::string::npos);

  BundleFacts healthy;
  CpuLoad ok;
  ok.load1 = 12.0, ok.online_cpus = 192, ok.psi_some_avg10 = 0.5;
  healthy.load.cpu = ok;
  CHECK(run_analysis(analyze_slow_rank, healthy).empty());
}

TEST_CASE("slow-rank bundle: NPU 3 down-clocked and hot, the host's CPUs contended", "[slow]") {
  LoadResult r = testing::load({std::string(TEST_DATA_DIR) + "/data/slow-rank-bundle"});
  REQUIRE(r.evidence.bundles.size() == 1);
  const BundleFacts& b = r.evidence.bundles[0];
  CHECK(b.load.readings.size() == 8);
  REQUIRE(b.load.cpu);
  CHECK(b.load.cpu->online_cpus == 192);
  REQUIRE(b.load.sched.size() == 1);
  Report report = correlate(r.evidence, AnalyzeOptions{});
  std::vector<const Finding*> down, hot, cpu;
  for (const auto& f : report.findings) {
    if (f.id == "slow-rank/aicore-downclocked") down.push_back(&f);
    if (f.id == "slow-rank/over-temperature") hot.push_back(&f);
    if (f.id == "slow-rank/cpu-contention") cpu.push_back(&f);
  }
  REQUIRE(down.size() == 1);
  CHECK(*down[0]->find_value("npu") == "3");
  CHECK(*down[0]->find_value("cur_freq_mhz") == "1200");
  CHECK(*down[0]->find_value("rated_freq_mhz") == "1800");
  CHECK(down[0]->evidence.size() == 2);
  REQUIRE(hot.size() == 1);
  CHECK(*hot[0]->find_value("temp_c") == "98");
  CHECK(*hot[0]->find_value("readings") == "4");
  REQUIRE(cpu.size() == 1);
  CHECK(*cpu[0]->find_value("pids") == "4242");
  for (const Finding* f : {down[0], hot[0], cpu[0]}) {
    CHECK(f->severity == Severity::warning);
    CHECK(f->does_not_prove.find("collection time") != std::string::npos);
  }
}
