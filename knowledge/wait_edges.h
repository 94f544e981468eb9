#pragma once
// knowledge/wait-edges.tsv: which signature hits name the rank, address or device a line's
// rank waits on (HCCL transport init, heartbeat loss, notify wait), and in which captures.
// Read by the wait graph (correlator/passes/wait_graph.h); the patterns stay in the
// signatures, this table says which side each capture names.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace triage {

// One side of an edge as a line names it; empty fields are not named.
struct RankRef {
  std::string rank, ip, device;
  bool empty() const { return rank.empty() && ip.empty() && device.empty(); }
};

struct WaitEdgeRow {
  std::string signature;
  // Capture names; "" = none. An address capture holds "ip" or "ip/device"; a device capture
  // names the device when the line prints it apart from the address.
  std::string target_rank, target_address, target_device, waiter_rank, waiter_address, waiter_device;
  std::string meaning;
  // No target column: the line reports a fault of its own device (a root candidate, no wait).
  bool own_fault() const { return target_rank.empty() && target_address.empty() && target_device.empty(); }
};

// What one hit says: `waiter` may be empty (then the line's own process waits).
struct WaitEdgeMatch {
  std::string signature;
  RankRef waiter, target;
};

constexpr std::string_view kWaitEdgesFile = "wait-edges.tsv";

using Captures = std::vector<std::pair<std::string, std::string>>;

struct WaitEdges {
  std::vector<WaitEdgeRow> rows;
  const WaitEdgeRow* of_signature(std::string_view id) const;
  // The edge a hit of `signature` with these captures names; nullopt when it names no target.
  std::optional<WaitEdgeMatch> edge(std::string_view signature, const Captures& captures) const;
};

// "80.5.5.67/7" -> ip 80.5.5.67, device 7; "80.5.5.67" -> ip only.
void split_address(std::string_view address, RankRef& into);

// Columns signature, target_rank, target_address, target_device, waiter_rank, waiter_address,
// waiter_device, meaning;
// problems as "file:line: message". Whether the signature and its captures exist is checked
// by tests/unit/knowledge/wait_edges_test.cpp against the signatures.
WaitEdges parse_wait_edges(std::string_view content, const std::string& name, std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/wait-edges.tsv replaces it).
const WaitEdges& wait_edges_for(const std::string& dir);

}  // namespace triage
