#pragma once
// One node's compact summary for fleet triage (`analyze --format summary`, schema
// ascend-triage-summary/1, docs/fleet.md): who the node is, what failed on it and when, by
// which clock, which versions and module/library chains it runs, and the collectives its logs
// name, and whom its ranks wait on. correlator/summaries/node_summary.cpp fills it from a Report; fleet/ reads it back from JSON.
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

// A line of this node that says whom its rank waits on (knowledge/wait-edges.tsv: HCCL
// transport init, heartbeat loss, notify wait, socket connect, link tables), deduplicated by
// waiter, target and signature: the raw material of the fleet's wait graph (issue 37).
// Addresses are "ip" or "ip/device" as the line names them; "" = not named.
struct NodeWaitEdge {
  std::string signature;
  std::string waiter_rank;  // as the line or its process's environment names it
  std::optional<int64_t> waiter_pid, waiter_device;
  std::string waiter_address;
  std::string target_rank, target_address;
  std::optional<int64_t> first_utc_us;  // the earliest such line, by the node's clock
  std::string clock;                    // its source (plog, job, ...)
  std::optional<int64_t> waiter_first_error_utc_us;  // the waiter process's earliest error line
  uint64_t count = 0;
};

// Keeps a summary small whatever the logs hold: the earliest edges are kept.
constexpr size_t kMaxNodeWaitEdges = 512;

// An address this node's own ranks have: what a remote rank's wait line names resolves to
// this node through it.
struct NodeAddress {
  std::string ip;
  std::optional<int64_t> device;
  std::string rank;    // "" when unknown
  std::string source;  // "log" (a line of this node names it as its own side), "rank-table" (the
                       // entry of one of its ranks), "hccn" (hccn_tool -ip)
};

constexpr size_t kMaxNodeAddresses = 256;

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
  std::vector<NodeWaitEdge> waits;       // absent in summaries written before issue 37: empty
  std::vector<NodeAddress> addresses;    // likewise
};

}  // namespace triage
