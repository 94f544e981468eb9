#pragma once
// Slow, not stuck (issue 37): what the device and the host were doing at collection time.
// npu-smi readings (ascend/npu-smi-common-<npu>.<k>.txt, -temp-/-power-<npu>-<chip>.<k>.txt),
// the host's CPU load (system/loadavg, system/pressure-cpu, system/cpu-online) and the
// scheduling counters of each selected process (processes/<pid>/status, schedstat).
// Every figure is one moment (the sample), not the time of the incident.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/evidence.h"

namespace triage {

// One chip's readings from one npu-smi output (`-t common` holds several chips; `-t temp`
// and `-t power` one). The MCU section of `-t common` (Chip Name : mcu) is not a chip.
struct NpuReading {
  std::string command;               // "common", "temp", "power" (from the entry name)
  std::optional<int64_t> npu, chip;  // NPU ID / Chip ID of the body, else the entry name
  std::optional<int64_t> sample;     // k of the entry name
  std::optional<int64_t> sampled_utc_us;
  std::optional<int64_t> aicore_pct;         // Aicore Usage Rate(%)
  std::optional<int64_t> rated_freq_mhz;     // Aicore Freq(MHZ): the rated frequency
  std::optional<int64_t> cur_freq_mhz;       // Aicore curFreq(MHZ): the frequency now
  std::optional<int64_t> temp_c;             // Temperature(C), NPU Temperature (C)
  std::optional<double> power_w;             // NPU Real-time Power(W)
  std::optional<double> rated_power_w;       // Rated Power Dissipation(W) (310 family)
  EvidenceRef evidence;                      // the curFreq, temperature or power line
  EvidenceRef temp_evidence, power_evidence;
};

// The host's CPU load when the collector ran.
struct CpuLoad {
  std::optional<double> load1, load5, load15;  // /proc/loadavg
  std::optional<int64_t> runnable, tasks;      // "3/1234"
  EvidenceRef load_evidence;
  std::optional<double> psi_some_avg10, psi_some_avg60, psi_full_avg10;  // /proc/pressure/cpu
  EvidenceRef psi_evidence;
  std::optional<int64_t> online_cpus;          // /sys/devices/system/cpu/online ("0-191")
  std::string online_text;
  EvidenceRef online_evidence;
};

// The scheduling counters of one process's main thread (/proc/<pid>/status, schedstat).
struct ProcessSched {
  int64_t pid = 0;
  std::optional<int64_t> voluntary, nonvoluntary;       // *_ctxt_switches of status
  EvidenceRef switches_evidence;                        // the nonvoluntary line
  std::optional<int64_t> run_ns, wait_ns, timeslices;   // schedstat: on CPU, waiting to run
  EvidenceRef schedstat_evidence;
  std::string entry;                                    // for fact ordering
};

struct LoadFacts {
  std::vector<NpuReading> readings;
  std::optional<CpuLoad> cpu;
  std::vector<ProcessSched> sched;  // one per pid (status and schedstat merged)

  ProcessSched& sched_of(int64_t pid) {
    for (auto& s : sched)
      if (s.pid == pid) return s;
    sched.push_back(ProcessSched{});
    sched.back().pid = pid;
    return sched.back();
  }
};

}  // namespace triage
