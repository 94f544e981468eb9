#pragma once
// The wait graph of a collective failure (issue 37): per rank, the ranks its lines say it
// waits on (knowledge/wait-edges.tsv); the root is the rank nobody waits on that others wait
// on, or, when the waits form a cycle, the rank in it whose first error came first.
#include <optional>
#include <string>
#include <vector>

#include "knowledge/wait_edges.h"
#include "model/evidence.h"
#include "model/host_facts.h"

namespace triage {

// A rank as the graph knows it: where it runs and when it first reported an error.
struct WaitRank {
  std::string host;             // "" = known only as a target (no log of it was read)
  RankRef id;                   // rank, ip, device, as far as known
  std::string first_error_utc;  // ISO UTC, already skew-corrected; "" = unknown
  std::string process;          // "pid 4242": its words when nothing else names it
  // The same on the lines' own clock, for when no rank's UTC is known (loose logs of one job,
  // whose members log in one zone): compared only when neither rank has a UTC time.
  std::string first_error_local;
};

struct WaitEdge {
  size_t waiter = 0;  // index into the ranks
  RankRef target;     // as the line names it
  EvidenceRef evidence;
};

// An edge whose target is already a rank of the list (fleet resolves targets across nodes).
struct WaitArc {
  size_t waiter = 0, target = 0;  // indexes into the ranks
  EvidenceRef evidence;
};

struct WaitRoot {
  size_t rank = 0;          // index into the ranks (a target no rank matched is added)
  size_t waiters = 0;       // ranks that wait on it, directly or through others
  bool in_cycle = false;    // chosen as the first error of a cycle of waits
  std::vector<size_t> chain;  // the longest wait path into the root, the root last
  std::string text;         // "rank 3 dev 3 on node-c: 7 ranks waited on it (chain: ...)"
  std::vector<EvidenceRef> evidence;  // the lines of the waits into it, then along the chain
};

// A rank's words: "rank 3 dev 3 on node-c"; "rank 3 dev 7 at 80.5.5.67" when no log of it was
// read; "80.5.5.67/7" for a rank known by address only.
std::string wait_rank_label(const WaitRank& r);

// The rank a target names (by rank number, else by address and device); `ranks` gains one
// when none matches.
size_t resolve_wait_target(std::vector<WaitRank>& ranks, const RankRef& target);

// `ranks` gains a rank for each target no rank matches (by rank number, else by address and
// device). No root without an edge between two different ranks.
std::optional<WaitRoot> find_wait_root(std::vector<WaitRank>& ranks, const std::vector<WaitEdge>& edges);
// The same over arcs already resolved to ranks (an arc of a rank to itself is ignored).
std::optional<WaitRoot> find_wait_root(const std::vector<WaitRank>& ranks, const std::vector<WaitArc>& arcs);

// One line of a bundle that says whom its rank waits on (knowledge/wait-edges.tsv), with the
// waiter completed from its process's environment (RANK / RANK_ID, DEVICE_ID / LOCAL_RANK)
// where the line does not name its own side.
struct BundleWait {
  std::string signature;
  RankRef waiter, target;
  std::optional<int64_t> pid;
  std::optional<int64_t> utc_us;              // the line's time; nullopt when undated
  std::optional<int64_t> first_error_utc_us;  // the process's earliest error signature hit
  std::optional<int64_t> first_local_us;      // the earlier of both on the lines' own clock (as if UTC)
  std::string source;                         // the clock of its time: plog, or the hit's source
  EvidenceRef evidence;
};

// The rank and device a process's environment states; empty fields when it states none.
RankRef rank_of_process(const BundleFacts& b, std::optional<int64_t> pid);

// Every wait line of the bundle, in the order of its signature hits.
std::vector<BundleWait> bundle_waits(const BundleFacts& b, const WaitEdges& table);

}  // namespace triage
