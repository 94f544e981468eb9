// Slow, not stuck (issue 37): npu-smi -t common/temp/power, the host's CPU load files and a
// process's schedstat/status, on verbatim public samples and their near misses.
#include <catch2/catch.hpp>

#include "model/host_facts.h"
#include "model_test_support.h"

using namespace triage;
using triage::test::run_kind;

namespace {

// MindCluster Ascend FaultDiag user guide (real-log-excerpts.md 4.3), `npu-smi info -t common`.
constexpr const char* kFaultDiagCommon =
    "        NPU ID                         : 0\n"
    "        Chip Count                     : 1\n"
    "        Chip ID                        : 0\n"
    "        Memory Usage Rate(%)           : 6\n"
    "        HBM Usage Rate(%)              : 0\n"
    "        Aicore Usage Rate(%)           : 0\n"
    "        Aicore Freq(MHZ)               : 900\n"
    "        Aicore curFreq(MHZ)            : 900\n"
    "        Aicore Count                   : 30\n"
    "        Temperature(C)                 : 41\n"
    "        NPU Real-time Power(W)         : 71.7\n";

// A 910B host's `npu-smi info -t common -i 1` (arthurchiao.art, GPU advanced notes 2): idle at
// 800 of 1800 MHz, then the MCU's section.
constexpr const char* k910BIdleCommon =
    "        NPU ID                         : 1\n"
    "        Chip Count                     : 1\n"
    "\n"
    "        Chip ID                        : 0\n"
    "        Memory Usage Rate(%)           : 0\n"
    "        HBM Usage Rate(%)              : 4\n"
    "        Aicore Usage Rate(%)           : 0\n"
    "        Aicore Freq(MHZ)               : 1800\n"
    "        Aicore curFreq(MHZ)            : 800\n"
    "        Aicore Count                   : 24\n"
    "        Temperature(C)                 : 46\n"
    "        NPU Real-time Power(W)         : 93.4\n"
    "\n"
    "        Chip Name                      : mcu\n"
    "        Temperature(C)                 : 38\n";

// A 310P card (gpustack's npu-smi tests): two chips, the MCU's power after them.
constexpr const char* k310PCommon =
    "NPU ID                         : 1\n"
    "Chip Count                     : 2\n"
    "\n"
    "Chip ID                        : 0\n"
    "Memory Usage Rate(%)           : 3\n"
    "Aicore Usage Rate(%)           : 0\n"
    "Aicore Freq(MHZ)               : 1080\n"
    "Aicore curFreq(MHZ)            : 960\n"
    "Temperature(C)                 : 60\n"
    "\n"
    "Chip ID                        : 1\n"
    "Memory Usage Rate(%)           : 3\n"
    "Aicore Usage Rate(%)           : 0\n"
    "Aicore Freq(MHZ)               : 1080\n"
    "Aicore curFreq(MHZ)            : 960\n"
    "Temperature(C)                 : 59\n"
    "\n"
    "Chip Name                      : mcu\n"
    "Temperature(C)                 : 48\n"
    "NPU Real-time Power(W)         : 13.4\n";

}  // namespace

TEST_CASE("npu-smi -t common: rated and current clock, use, temperature, power per chip", "[npu_smi][slow]") {
  BundleFacts f;
  auto s = run_kind(SourceKind::npu_smi_readings, "ascend/npu-smi-common-0.1.txt",
                    std::string("sampled_utc=2026-09-04T01:55:11Z\n") + kFaultDiagCommon, f);
  REQUIRE(f.load.readings.size() == 1);
  const auto& r = f.load.readings[0];
  CHECK(r.command == "common");
  CHECK(r.npu == 0);
  CHECK(r.chip == 0);
  CHECK(r.sample == 1);
  CHECK(r.sampled_utc_us == int64_t{1788486911} * 1000000);
  CHECK(r.rated_freq_mhz == 900);
  CHECK(r.cur_freq_mhz == 900);
  CHECK(r.aicore_pct == 0);
  CHECK(r.temp_c == 41);
  REQUIRE(r.power_w);
  CHECK(*r.power_w == Approx(71.7));
  CHECK(r.evidence.line == 9);  // the curFreq line
  CHECK(s.malformed == 0);
  CHECK(s.unrecognised == 0);

  // The MCU's section is no chip: its temperature does not replace chip 0's.
  BundleFacts g;
  run_kind(SourceKind::npu_smi_readings, "ascend/npu-smi-common-1.2.txt", k910BIdleCommon, g);
  REQUIRE(g.load.readings.size() == 1);
  CHECK(g.load.readings[0].npu == 1);
  CHECK(g.load.readings[0].temp_c == 46);
  CHECK(g.load.readings[0].cur_freq_mhz == 800);
  CHECK(g.load.readings[0].rated_freq_mhz == 1800);

  // Two chips; the MCU's power does not leak into chip 1.
  BundleFacts h;
  run_kind(SourceKind::npu_smi_readings, "ascend/npu-smi-common-1.1.txt", k310PCommon, h);
  REQUIRE(h.load.readings.size() == 2);
  CHECK(h.load.readings[0].chip == 0);
  CHECK(h.load.readings[1].chip == 1);
  CHECK(h.load.readings[1].temp_c == 59);
  CHECK_FALSE(h.load.readings[1].power_w);
}

TEST_CASE("npu-smi -t temp and -t power, and their near misses", "[npu_smi][slow]") {
  BundleFacts f;
  // Atlas 200I A2 npu-smi reference: "npu-smi info -t temp -i 0 -c 0"; a server prints "NPU
  // Temperature (C)" (npu-smi's print_chip_temp_info).
  run_kind(SourceKind::npu_smi_readings, "ascend/npu-smi-temp-0-0.1.txt",
           "        Temperature (C)                : 50\n", f);
  run_kind(SourceKind::npu_smi_readings, "ascend/npu-smi-temp-3-0.2.txt",
           "sampled_utc=2026-09-04T01:55:11Z\n\tNPU Temperature (C)            : 97\n", f);
  run_kind(SourceKind::npu_smi_readings, "ascend/npu-smi-power-0-0.1.txt",
           "NPU Real-time Power(W)         : 9.1\n", f);
  REQUIRE(f.load.readings.size() == 3);
  CHECK(f.load.readings[0].command == "temp");
  CHECK(f.load.readings[0].temp_c == 50);
  CHECK(f.load.readings[1].npu == 3);
  CHECK(f.load.readings[1].chip == 0);
  CHECK(f.load.readings[1].sample == 2);
  CHECK(f.load.readings[1].temp_c == 97);
  CHECK(f.load.readings[1].evidence.line == 2);
  CHECK(f.load.readings[2].command == "power");
  REQUIRE(f.load.readings[2].power_w);
  CHECK(*f.load.readings[2].power_w == Approx(9.1));

  // Near misses: -t sensors' Soc Max Temperature, the MCU's LM75 sensors, NA in a container.
  BundleFacts g;
  run_kind(SourceKind::npu_smi_readings, "ascend/npu-smi-temp-0-1.1.txt",
           "        Soc Max Temperature (C)        : 38\n        LM75A_TE (C)                   : 39\n"
           "        TEC_TEMP (C)                   : NA\n",
           g);
  run_kind(SourceKind::npu_smi_readings, "ascend/npu-smi-temp-0-0.3.txt",
           "        NPU Temperature (C)            : NA\n", g);
  CHECK(g.load.readings.empty());

  // A tool that refuses: "not collected", no reading.
  BundleFacts h;
  auto s = run_kind(SourceKind::npu_smi_readings, "ascend/npu-smi-power-1-0.1.txt",
                    "This device does not support querying power.\n", h);
  CHECK(h.load.readings.empty());
  CHECK(s.not_collected.starts_with("tool_unsupported"));
  auto d = run_kind(SourceKind::npu_smi_readings, "ascend/npu-smi-common-1.1.txt",
                    "dcmi module initialize failed. ret is -8005\n", h);
  CHECK(d.not_collected.starts_with("tool_failed"));
}

TEST_CASE("cpu_load: loadavg, PSI, online CPUs; schedstat and status switches", "[slow]") {
  BundleFacts f;
  run_kind(SourceKind::cpu_load, "system/loadavg", "0.52 0.58 0.59 3/1234 56789\n", f);
  // The kernel's PSI documentation (Documentation/accounting/psi.rst) form.
  run_kind(SourceKind::cpu_load, "system/pressure-cpu",
           "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", f);
  run_kind(SourceKind::cpu_load, "system/cpu-online", "0-95,128-191\n", f);
  REQUIRE(f.load.cpu);
  CHECK(*f.load.cpu->load1 == Approx(0.52));
  CHECK(f.load.cpu->runnable == 3);
  CHECK(f.load.cpu->tasks == 1234);
  CHECK(*f.load.cpu->psi_some_avg10 == Approx(0.0));
  CHECK(f.load.cpu->online_cpus == 160);

  // Near misses: four loadavg fields, a PSI line without avg10, a reversed CPU range.
  BundleFacts g;
  auto a = run_kind(SourceKind::cpu_load, "system/loadavg", "0.52 0.58 0.59 3/1234\n", g);
  auto b = run_kind(SourceKind::cpu_load, "system/pressure-cpu", "some total=12\n", g);
  auto c = run_kind(SourceKind::cpu_load, "system/cpu-online", "7-3\n", g);
  CHECK(a.malformed == 1);
  CHECK(b.malformed == 1);
  CHECK(c.malformed == 1);
  CHECK_FALSE(g.load.cpu);

  BundleFacts p;
  run_kind(SourceKind::proc_schedstat, "processes/4242/schedstat", "1830000000 2570000000 8123\n", p);
  run_kind(SourceKind::proc_status, "processes/4242/status",
           "Name:\tpython3\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t1500\nnonvoluntary_ctxt_switches:\t9800\n", p);
  REQUIRE(p.load.sched.size() == 1);
  CHECK(p.load.sched[0].pid == 4242);
  CHECK(p.load.sched[0].run_ns == 1830000000);
  CHECK(p.load.sched[0].wait_ns == 2570000000);
  CHECK(p.load.sched[0].voluntary == 1500);
  CHECK(p.load.sched[0].nonvoluntary == 9800);
  CHECK(p.load.sched[0].switches_evidence.line == 4);
  auto bad = run_kind(SourceKind::proc_schedstat, "processes/4243/schedstat", "1830000000 x 8123\n", p);
  CHECK(bad.malformed == 1);
}
