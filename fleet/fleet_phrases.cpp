// The sentences the fleet formats share (fleet_phrases.h).
#include "fleet/fleet_phrases.h"

#include <fmt/format.h>

#include <cstdlib>

#include "model/time.h"

namespace triage::fleet {

const std::string_view kSkewCaveat =
    "Skew is estimated from collectives that several nodes logged (the same HCCL operation tag, "
    "or the same collective timeout): each is taken as one moment, and a node's offset is its "
    "median distance from the median of all nodes' times; offsets under 1 s are shown but not "
    "applied. It assumes the nodes reached the collective "
    "together: a node that arrived late reads as a clock ahead by as much, and it says nothing "
    "about clocks of nodes that logged no shared collective.";

bool skew_applied(const RankedNode& n) { return n.skew && std::abs(n.skew->offset_ms) >= kMinAppliedSkewMs; }

std::string when(const std::optional<int64_t>& us) { return us ? format_utc(*us) : "undated"; }

std::string seconds(int64_t ms) { return fmt::format("{:+.1f} s", ms / 1000.0); }

// "node-3 rank 27 device 3 pid 4242"
std::string where(const RankedNode& r) {
  std::string s = r.name;
  if (!r.first) return s;
  if (!r.first->rank.empty()) s += " rank " + r.first->rank;
  if (r.first->device) s += fmt::format(" device {}", *r.first->device);
  if (r.first->pid) s += fmt::format(" pid {}", *r.first->pid);
  return s;
}

std::string how(const RankedNode& r) {
  if (!r.first) return "no finding at warning or above";
  return fmt::format("{} ({}), first {} by the {} clock", r.first->id, r.first->klass,
                     when(r.first->first_utc_us), r.first->clock.empty() ? "unknown" : r.first->clock);
}

std::string headline(const FleetReport& r) {
  size_t origins = 0, waiters = 0;
  for (const auto& n : r.ranked) origins += n.role == "origin", waiters += n.role == "waiter";
  return fmt::format("{} nodes: {} origin{}, {} waiter{}, {} other", r.ranked.size(), origins,
                     origins == 1 ? "" : "s", waiters, waiters == 1 ? "" : "s",
                     r.ranked.size() - origins - waiters);
}

std::string first_line(const FleetReport& r) {
  if (r.ranked.empty() || !r.ranked.front().first) return "No node reports a failure.";
  const RankedNode& f = r.ranked.front();
  std::string s = fmt::format("{} failed first{}: {}", where(f),
                              f.role == "origin" ? "" : " (no node failed by itself: the first waiter)",
                              how(f));
  if (skew_applied(f))
    s += fmt::format("; its clock is {} off the fleet, corrected {}", seconds(f.skew->offset_ms),
                     when(f.corrected_first_us));
  return s;
}

// "Wait graph (...): rank 7 dev 1 on node3: 7 ranks waited on it ...", and whether the
// cause-first order agrees.
std::string wait_line(const FleetReport& r) {
  const FleetWaitGraph& g = r.waits;
  if (g.edges == 0) return "Wait graph: no node's lines name a rank they wait on.";
  std::string s = fmt::format("Wait graph ({} wait edge{} from {} node{}, {} rank{}): ", g.edges, g.edges == 1 ? "" : "s",
                              g.nodes_with_waits, g.nodes_with_waits == 1 ? "" : "s", g.ranks, g.ranks == 1 ? "" : "s");
  if (!g.root) return s + "no root: every wait names the waiting rank itself.";
  const FleetWaitRoot& w = *g.root;
  s += w.text;
  if (w.first_error_us) {
    s += fmt::format("; its first error {}", when(w.first_error_us));
    if (w.corrected_first_error_us != w.first_error_us) s += fmt::format(", corrected {}", when(w.corrected_first_error_us));
  }
  if (!w.agrees) s += ". They disagree: " + w.disagreement + "; neither is dropped, check both.";
  else if (w.compared) s += ". The cause-first order names the same node first.";
  else s += ". No node has a finding of its own to compare it with.";
  return s;
}

}  // namespace triage::fleet
