#pragma once
// One node's compact summary for fleet triage (`analyze --format summary`, schema
// ascend-triage-summary/1, docs/fleet.md): who the node is, what failed on it and when, by
// which clock, which versions and module/library chains it runs, and the collectives its logs
// name. correlator/node_summary.cpp fills it from a Report; fleet/ reads it back from JSON.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace triage {

struct NodeBoot {
  std::string boot_id;
  std::optional<int64_t> start_utc_us;
};

struct NodeRank {
  std::string rank;  // as the process's environment states it (RANK, RANK_ID)
  int64_t pid = 0;
  std::optional<int64_t> device;  // DEVICE_ID / LOCAL_RANK when stated
};

struct NodeFinding {
  std::string id, severity, title;
  std::string klass;  // device-error, oom, process-exit, stall, peer-loss, collective-wait, other
  std::string role;   // origin, waiter, context (knowledge/fleet-roles.tsv)
  std::optional<int64_t> first_utc_us, last_utc_us;
  std::string clock;  // the source whose clock gave the time (plog, job-output, journal, ...)
  std::optional<int64_t> pid, device;
  std::string rank;   // of the pid, when known
};

// A source pair's measured offset on this host (the timeline's clock skews).
struct NodeSkew {
  std::string source_a, source_b, method;
  int64_t b_minus_a_ms = 0;
};

struct NodeVersion {
  std::string component, version;
};

// A short hash over a resolved chain (module files, mapped Ascend libraries): nodes with the
// same chain have the same fingerprint; `items` says how much it covers.
struct NodeFingerprint {
  std::string name;  // "modules", "libraries"
  std::string hash;  // 16 hex digits of a sha256; "" when nothing was seen
  uint64_t items = 0;
};

// A collective a log line names, for clock skew: the same marker on several nodes is taken
// as one moment seen by their clocks.
struct CollectiveMarker {
  std::string key;    // "hccl-tag:AllReduce_...", "hccl-fftsplus-timeout:hccl fftsplus task timeout"
  int64_t first_utc_us = 0;
  std::string clock;
  uint64_t count = 0;
};

struct NodeSummary {
  std::string host;
  std::vector<std::string> inputs;
  std::vector<NodeBoot> boots;
  std::vector<NodeRank> ranks;
  std::vector<int64_t> devices, pids;
  std::vector<NodeFinding> findings;  // warning and above, by first time
  std::vector<NodeSkew> skews;
  std::vector<NodeVersion> versions;
  std::vector<NodeFingerprint> fingerprints;
  std::vector<CollectiveMarker> collectives;
};

}  // namespace triage
