#pragma once
// npu-smi and probe facts (ascend/npu-smi-*.txt, probes/<name>.*). Device errors seen in logs
// are in facts_logs.h (ErrorCodeFact, SignatureHit, KernelEvent); analyses read both.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/evidence.h"

namespace triage {

// One chip row pair of the `npu-smi info` table.
struct NpuChipRow {
  int64_t npu = -1;
  int64_t chip = -1;
  std::optional<int64_t> phy_id;    // A3 / 26.x layouts only
  std::string name;                 // "910B3", "Ascend910", "910B4-1"
  std::string health;               // "OK", "Alarm", "Warning", ...
  std::optional<double> power_w;    // "-" on the second chip of an A3 NPU
  std::optional<int64_t> temp_c;
  std::string bus_id;
  std::optional<int64_t> aicore_pct;
  std::optional<int64_t> hbm_used_mb, hbm_total_mb;
  EvidenceRef evidence;             // the first row of the pair
};

struct NpuProcessRow {
  int64_t npu = -1, chip = -1, pid = 0;
  std::string name;
  std::optional<int64_t> memory_mb;
  EvidenceRef evidence;
};

struct NpuSmiInfo {
  std::string version;               // npu-smi version of the header
  std::string driver_version;        // the header's `Version:` (the driver's; may carry a patch, `.sph001`)
  std::vector<NpuChipRow> chips;
  std::vector<NpuProcessRow> processes;
  std::vector<int64_t> npus_without_processes;  // "No running processes found in NPU N"
  std::string failure;               // "dcmi module initialize failed. ret is -8005"
  std::optional<int64_t> failure_code;  // -8005
  EvidenceRef evidence;              // the entry (line 0) or the failure line
};

// `npu-smi info -t health -i N -c C`.
struct NpuHealth {
  std::optional<int64_t> npu, chip;  // from the entry name npu-smi-health-<npu>-<chip>.txt
  std::string status;                // "OK", "Warning", "Alarm", "Critical"...
  std::string error_code;            // "NA" or hex codes
  std::string error_information;
  EvidenceRef evidence;              // the Health Status line
};

// One `npu-smi info -t usages` sample (first line `sampled_utc=`).
struct NpuUsageSample {
  std::optional<int64_t> npu, chip;  // from the body (NPU ID / Chip ID), else the entry name
  std::optional<int64_t> sample;     // k of npu-smi-usages-<npu>-<chip>.<k>.txt
  std::optional<int64_t> sampled_utc_us;
  std::optional<int64_t> aicore_pct, aivector_pct, aicpu_pct, hbm_pct;
  EvidenceRef evidence;              // the Aicore Usage Rate line (or the entry)
};

// `npu-smi info -m`: NPU / chip / logic id map.
struct NpuMapRow {
  int64_t npu = -1, chip = -1;
  std::optional<int64_t> logic_id;   // "-" for the MCU
  std::string chip_name;
};

// A probe: probes/<name>.json (contract fields) with its .stdout/.stderr/.status/.threads.txt.
struct ProbeResult {
  std::string name;                  // ones_copyback, cpu_rand_h2d, matmul, rand, randn, randint
  bool has_json = false;
  std::optional<int64_t> device;
  std::string python, torch_npu_version;
  std::optional<int64_t> started_utc_us;
  std::optional<int64_t> rc;
  std::optional<bool> timed_out;
  std::optional<int64_t> duration_ms;
  std::string stdout_first_line;     // the probe's printed value
  bool has_stdout = false, has_stderr = false, has_status = false, has_threads = false;
  std::optional<int64_t> error_code; // `error code is N` in stderr
  std::string exception_line;        // last `XxxError: ...` line of stderr
  std::string error_text;            // `[Error]: ...`
  EvidenceRef evidence;              // the JSON (line 1)
  EvidenceRef stderr_evidence;       // the line carrying the error code / exception
};

// A RAS / fault-manager event id the device logged (msnpureport export: slog event_*.log,
// device-os logs, black-box history.log / kbox.txt): `event_id=0x80E01809`,
// `[fault_manager] event_id: [0x80C98001]`. Meanings live in knowledge/device-events.tsv.
struct DeviceRasEvent {
  std::string event_id;              // lower-case hex as written ("0x80e01809")
  std::optional<int64_t> device;     // from the export path (dev-os-<n>, device-<n>)
  std::string file_kind;             // event-log, device-os-log, bbox-history, bbox-kernel, ...
  std::string time_text;             // the line's own time, device clock (never converted)
  EvidenceRef evidence;
};

// An APEI hardware memory error block of a device black-box kernel log (kbox.txt):
// `[Hardware Error]  error_type: 3, multi-bit ECC` with the block's address and location.
struct DeviceMemoryError {
  std::optional<int64_t> device;
  std::string error_type;            // "3, multi-bit ECC"
  std::string physical_address;      // "0x0000101efe36d3c0"
  std::string location;              // "node: 2 card: 259 module: 51 rank: 1 bank: 10 row: 30691 column: 56"
  std::string time_text;             // device uptime "[2454.830701]"
  std::string file_kind = "bbox-kbox (APEI)";  // or "bbox-driver" (a fail-info line)
  EvidenceRef evidence;              // the error_type line
};

// One file of a device-log export, as the dispatcher read it.
struct DeviceExportFile {
  std::string entry;
  std::string file_kind;             // as DeviceRasEvent::file_kind, or "binary (not parsed)"
  std::optional<int64_t> device;
};

// `npu-smi info -t topo`: how each pair of NPUs is linked, and each NPU's CPU affinity.
struct NpuTopology {
  std::vector<std::string> npus;                 // the header's columns: "NPU0", "NPU1", ...
  std::vector<std::vector<std::string>> links;   // links[row][column]: "X", "HCCS", "SYS", "PIX", ...
  std::vector<std::string> cpu_affinity;         // per row: "144-167" ("" when not shown)
  EvidenceRef evidence;                          // the header line
};

struct DeviceFacts {
  std::optional<NpuSmiInfo> info;
  std::optional<NpuSmiInfo> map_failure;  // `npu-smi info -m` that printed a failure
  std::vector<NpuMapRow> map;
  std::vector<NpuTopology> topologies;
  std::vector<NpuHealth> health;
  std::vector<NpuUsageSample> usages;
  std::vector<ProbeResult> probes;
  // msnpureport export (ascend/device-logs/): what the device logged about itself.
  std::vector<DeviceExportFile> export_files;
  std::vector<DeviceRasEvent> ras_events;
  std::vector<DeviceMemoryError> memory_errors;

  ProbeResult& probe(const std::string& name) {
    for (auto& p : probes)
      if (p.name == name) return p;
    probes.push_back(ProbeResult{});
    probes.back().name = name;
    return probes.back();
  }
};

}  // namespace triage
