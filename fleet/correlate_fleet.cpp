#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "fleet/fleet_report.h"

namespace triage::fleet {

namespace {

// Lower median: deterministic for even counts and always one of the measured values.
int64_t median(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v[(v.size() - 1) / 2];
}

// Each collective several nodes logged is one moment read by several clocks: a node's offset
// is the median, over those collectives, of its time minus the median of all nodes' times.
std::vector<std::optional<NodeSkewEstimate>> estimate_skews(const std::vector<LoadedNode>& nodes,
                                                             size_t& shared) {
  std::map<std::string, std::vector<std::pair<size_t, int64_t>>> by_key;
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const auto& c : nodes[i].node.collectives) by_key[c.key].emplace_back(i, c.first_utc_us);
  std::vector<std::vector<int64_t>> offsets(nodes.size());
  shared = 0;
  for (const auto& [key, seen] : by_key) {
    std::set<size_t> distinct;
    for (const auto& [i, t] : seen) distinct.insert(i);
    if (distinct.size() < 2) continue;
    ++shared;
    std::vector<int64_t> times;
    for (const auto& [i, t] : seen) times.push_back(t);
    int64_t ref = median(times);
    for (const auto& [i, t] : seen) offsets[i].push_back(t - ref);
  }
  std::vector<std::optional<NodeSkewEstimate>> out(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i)
    if (!offsets[i].empty()) out[i] = NodeSkewEstimate{median(offsets[i]) / 1000, offsets[i].size()};
  return out;
}

int role_rank(const std::string& role) {
  if (role == "origin") return 0;
  if (role == "waiter") return 1;
  if (role == "context") return 2;
  return 3;  // clean
}

RankedNode rank_node(const LoadedNode& n, const std::optional<NodeSkewEstimate>& skew) {
  RankedNode r;
  r.name = n.node.host.empty() ? n.source : n.node.host;
  r.source = n.source;
  r.summary = &n.node;
  r.skew = skew;
  r.findings = n.node.findings.size();
  r.role = "clean";
  for (const auto& f : n.node.findings)
    if (role_rank(f.role) < role_rank(r.role)) r.role = f.role;
  // Offsets under a second are not applied: the spread of arrivals at a collective is that large.
  int64_t correction = skew && std::abs(skew->offset_ms) >= kMinAppliedSkewMs ? skew->offset_ms * 1000 : 0;
  for (const auto& f : n.node.findings) {
    if (f.role != r.role) continue;
    std::optional<int64_t> t;
    if (f.first_utc_us) t = *f.first_utc_us - correction;
    // Dated before undated; then earlier; then the one naming a pid; then by id (stable
    // whatever the input order).
    auto key = [](const std::optional<int64_t>& x, const NodeFinding* g) {
      return std::make_tuple(!x.has_value(), x.value_or(0), !g->pid.has_value(), g->id);
    };
    if (!r.first || key(t, &f) < key(r.corrected_first_us, r.first)) {
      r.first = &f;
      r.corrected_first_us = t;
    }
  }
  return r;
}

// Per component, the value most nodes share and the nodes that differ from it.
std::vector<Deviation> deviations(const std::vector<LoadedNode>& nodes, const std::vector<RankedNode>& ranked) {
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> values;  // component -> node, value
  for (size_t i = 0; i < nodes.size(); ++i) {
    const std::string& name = ranked[i].name;
    for (const auto& v : nodes[i].node.versions) values[v.component].emplace_back(name, v.version);
    for (const auto& fp : nodes[i].node.fingerprints)
      if (!fp.hash.empty()) values[fp.name + " fingerprint"].emplace_back(name, fp.hash);
  }
  std::vector<Deviation> out;
  for (auto& [component, list] : values) {
    std::map<std::string, size_t> count;
    for (const auto& [node, v] : list) ++count[v];
    if (count.size() < 2) continue;
    Deviation d;
    d.component = component;
    d.nodes_with_value = list.size();
    size_t best = 0, best_ties = 0;
    for (const auto& [v, c] : count) {
      if (c > best) best = c, best_ties = 1, d.majority = v;
      else if (c == best) ++best_ties;
    }
    if (best_ties > 1) d.majority.clear();
    d.majority_nodes = d.majority.empty() ? 0 : best;
    for (const auto& [node, v] : list)
      if (v != d.majority) d.others.emplace_back(node, v);
    std::sort(d.others.begin(), d.others.end());
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace

bool FleetReport::has_findings() const {
  return std::any_of(ranked.begin(), ranked.end(), [](const RankedNode& r) { return r.findings > 0; });
}

FleetReport correlate_fleet(std::vector<LoadedNode> nodes) {
  FleetReport r;
  r.loaded = std::move(nodes);
  std::sort(r.loaded.begin(), r.loaded.end(), [](const LoadedNode& a, const LoadedNode& b) {
    return std::tie(a.node.host, a.source) < std::tie(b.node.host, b.source);
  });
  auto skews = estimate_skews(r.loaded, r.shared_markers);
  for (size_t i = 0; i < r.loaded.size(); ++i) r.ranked.push_back(rank_node(r.loaded[i], skews[i]));
  r.deviations = deviations(r.loaded, r.ranked);
  // Cause first, then corrected time (undated last), then name.
  std::stable_sort(r.ranked.begin(), r.ranked.end(), [](const RankedNode& a, const RankedNode& b) {
    auto key = [](const RankedNode& x) {
      return std::make_tuple(role_rank(x.role), !x.corrected_first_us.has_value(),
                             x.corrected_first_us.value_or(0), x.name, x.source);
    };
    return key(a) < key(b);
  });
  return r;
}

}  // namespace triage::fleet
