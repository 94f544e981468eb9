#pragma once
// What `ascend-triage fleet` concludes from the nodes' summaries (docs/fleet.md): the nodes in
// order, cause first (origins, then waiters, then the rest) and then by skew-corrected time;
// the clock skews the shared collectives let it measure; the nodes that differ from the
// majority in versions or module/library chains.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "correlator/passes/marker_skew.h"
#include "fleet/summary_reader.h"

namespace triage::fleet {

// A node's clock offset against the fleet, from collectives several nodes logged
// (correlator/passes/marker_skew.h; offsets under kMinAppliedSkewMs are reported, not applied).
using NodeSkewEstimate = MarkerSkew;

struct RankedNode {
  std::string name;    // host, else the summary file
  std::string source;  // the summary file
  std::string role;    // origin, waiter, context, clean
  const NodeFinding* first = nullptr;  // the earliest finding of that role (corrected time)
  std::optional<int64_t> corrected_first_us;
  std::optional<NodeSkewEstimate> skew;
  size_t findings = 0;  // at warning and above
  const NodeSummary* summary = nullptr;
};

struct Deviation {
  std::string component;  // "driver", "CANN toolkit", "modules fingerprint", ...
  std::string majority;   // "" when no value has more nodes than every other (a split)
  size_t majority_nodes = 0, nodes_with_value = 0;
  std::vector<std::pair<std::string, std::string>> others;  // node, value (sorted by node)
};

// The root of the fleet's wait graph (issue 37): the rank the others wait on, directly or
// through a chain, that waits on none (or, in a cycle of waits, the one whose skew-corrected
// first error came first), from every node's wait lines.
struct FleetWaitRoot {
  std::string text;    // "rank 7 dev 1 on node3: 7 ranks waited on it (chain: ...)"
  std::string node;    // "" when no summary holds it (known only by what the waiters name)
  std::string rank, address;  // "" when unknown
  std::optional<int64_t> device;
  size_t waiters = 0;
  bool in_cycle = false;
  std::vector<std::string> chain;  // labels along the longest wait path, the root last: the
                                   // last kMaxChainLabels of chain_length
  size_t chain_length = 0;
  std::optional<int64_t> first_error_us, corrected_first_error_us;  // node clock, fleet clock
  bool compared = false;    // some node has a finding: the cause-first order names a first node
  bool agrees = true;       // names the node the cause-first order names first
  std::string disagreement; // what each names, when they differ
};

constexpr size_t kMaxChainLabels = 32;

struct FleetWaitGraph {
  size_t edges = 0;  // wait edges read from the summaries
  size_t ranks = 0;  // ranks in the graph (waiters and the ranks they name)
  size_t nodes_with_waits = 0;
  std::optional<FleetWaitRoot> root;
};

struct FleetReport {
  std::vector<LoadedNode> loaded;  // sorted by host, then source: argument order does not matter
  std::vector<RankedNode> ranked;  // points into `loaded`
  std::vector<Deviation> deviations;
  size_t shared_markers = 0;       // collectives seen by two nodes or more
  FleetWaitGraph waits;
  bool has_findings() const;
};

// Fills everything from `nodes` (taken over).
FleetReport correlate_fleet(std::vector<LoadedNode> nodes);

enum class FleetFormat { text, md, json, html };
void render_fleet(const FleetReport& r, FleetFormat format, std::ostream& out);
// One self-contained offline page (no script, nothing fetched), as analyze --format html.
void render_fleet_html(const FleetReport& r, std::ostream& out);

}  // namespace triage::fleet
