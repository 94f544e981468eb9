#pragma once
// The device network and the job's communicator as the collector saw them: hccn_tool answers
// per device (ascend/hccn-<query>-<id>.txt), the rank table a process names
// (processes/<pid>/rank-table.json) and py-spy stacks (processes/<pid>/py-spy-dump.txt).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/evidence.h"

namespace triage {

// `[device N]    Sat Jun 13 00:01:12 2026    LINK UP` of `-link_stat -g`.
struct HccnLinkChange {
  std::string when;  // as printed
  bool up = false;
  EvidenceRef evidence;
};

// One `name : value` line of `-optical -g` that a port-health rule reads
// (knowledge/port-health.tsv): `present`, `Tx Power0`..`Rx Power3` (mW), the module's
// `TxPower High Thres` / `Low Thres` and `RxPower ...` (mW), `Tx Los Flag`, `Rx LoL Flag`, ...
struct HccnReading {
  std::string name, value;  // as printed, trimmed ("Rx Power1", "0.0054 mW")
  EvidenceRef evidence;
};

// What hccn_tool answered for one device (logic id from the entry name).
struct HccnPort {
  int64_t device = 0;
  std::string link_status;  // -link: "UP", "DOWN" (empty: not collected)
  EvidenceRef link_evidence;
  std::string net_health;   // -net_health: "Success", "Fault", "Socket fail", ...
  EvidenceRef net_health_evidence;
  std::string ip, netmask;  // -ip
  EvidenceRef ip_evidence;
  std::optional<int64_t> link_up_count;  // -link_stat
  std::vector<HccnLinkChange> link_changes;  // in file order
  std::string optical_present;  // -optical: "present", "not present", ...
  std::vector<HccnReading> optical;  // -optical: presence, lane powers, thresholds, Los/LoL flags
  std::string fec_mode;         // -fec: "no FEC mode", "rs FEC mode" (after `fec mode:`)
  EvidenceRef fec_evidence;
  std::string ipv6;             // -ip -inet6: ipv6_address
  EvidenceRef ipv6_evidence;
  std::vector<std::pair<std::string, int64_t>> error_counters;  // -stat: non-zero *err* / *bad*
  EvidenceRef stat_evidence;    // the first non-zero error counter
  std::string tls_switch;       // -tls -g: "0" disabled, "1" enabled (ranks must agree)
  EvidenceRef tls_evidence;
};

struct RankTableDevice {
  std::string server_id, device_id, device_ip, rank_id;  // as written ("" when absent)
  EvidenceRef evidence;
};

struct RankTable {
  int64_t pid = 0;
  std::string status;  // "completed", ...
  std::vector<RankTableDevice> devices;  // every server's devices, in file order
  EvidenceRef evidence;
};

// One thread of `py-spy dump`: frames innermost first, "function (file:line)".
struct PyThreadStack {
  int64_t pid = 0;
  std::string thread, state, name;  // "12345", "idle", "MainThread"
  std::vector<std::string> frames;
  EvidenceRef evidence;             // the `Thread` line
};

struct NetworkFacts {
  std::map<int64_t, HccnPort> hccn;  // by device logic id
  std::vector<RankTable> rank_tables;
  std::vector<PyThreadStack> stacks;
};

}  // namespace triage
