#pragma once
// knowledge/wait-edges.tsv: the lines in which one rank names the rank, address or device it
// waits on (HCCL transport init, heartbeat loss, notify wait). Read by the wait graph
// (correlator/passes/wait_graph.h); the patterns are data, the graph is code.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace triage {

// One side of an edge as a line names it; empty fields are not named.
struct RankRef {
  std::string rank, ip, device;
  bool empty() const { return rank.empty() && ip.empty() && device.empty(); }
};

struct WaitEdgeRow {
  std::string id, pattern, match, near_miss, meaning;
  std::shared_ptr<const re2::RE2> re;
};

// What one line says: `waiter` may be empty (then the line's own process waits).
struct WaitEdgeMatch {
  std::string row_id;
  RankRef waiter, target;
};

constexpr std::string_view kWaitEdgesFile = "wait-edges.tsv";

struct WaitEdges {
  std::vector<WaitEdgeRow> rows;
  // The first row whose pattern the line holds, with its captures.
  std::optional<WaitEdgeMatch> match(std::string_view line) const;
};

// Columns id, pattern, match, near_miss, meaning; a row whose pattern does not compile, names
// no target group, misses its match or holds its near miss is an error ("file:line: ...").
WaitEdges parse_wait_edges(std::string_view content, const std::string& name, std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/wait-edges.tsv replaces it).
const WaitEdges& wait_edges_for(const std::string& dir);

}  // namespace triage
