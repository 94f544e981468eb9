#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "correlator/passes/marker_skew.h"
#include "correlator/passes/wait_graph.h"
#include "fleet/fleet_report.h"
#include "model/time.h"

namespace triage::fleet {

namespace {

// Each collective several nodes logged is one moment read by several clocks
// (correlator/passes/marker_skew.h).
std::vector<std::optional<NodeSkewEstimate>> estimate_skews(const std::vector<LoadedNode>& nodes,
                                                             size_t& shared) {
  std::vector<std::vector<std::pair<std::string, int64_t>>> markers(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const auto& c : nodes[i].node.collectives) markers[i].emplace_back(c.key, c.first_utc_us);
  return estimate_marker_skews(markers, shared);
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
  int64_t correction = applied_correction_us(skew);
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

int64_t correction_us(const std::optional<NodeSkewEstimate>& skew) { return applied_correction_us(skew); }

std::optional<int64_t> to_int(const std::string& s) {
  if (s.empty() || s.size() > 12) return std::nullopt;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

// "ip/device" -> ip, device; "ip" -> ip, "".
std::pair<std::string, std::string> split(const std::string& address) {
  size_t slash = address.find('/');
  if (slash == std::string::npos) return {address, ""};
  return {address.substr(0, slash), address.substr(slash + 1)};
}

// The fleet's wait graph: every node's ranks and wait edges, the targets resolved to the node
// that holds them (by rank number, else by address and device, else by an address a node's
// summary lists as its own), each rank's first error corrected for its node's skew. Lookups
// go through indexes: a fleet of thousands of ranks resolves in time linear in its edges.
class FleetWaits {
 public:
  FleetWaits(const std::vector<LoadedNode>& nodes, const std::vector<RankedNode>& ranked,
             const std::vector<std::optional<NodeSkewEstimate>>& skews)
      : nodes_(nodes), ranked_(ranked), skews_(skews) {}

  FleetWaitGraph build() {
    FleetWaitGraph g;
    for (size_t i = 0; i < nodes_.size(); ++i)
      for (const auto& a : nodes_[i].node.addresses) node_of_ip_.try_emplace(a.ip, i, &a);
    for (size_t i = 0; i < nodes_.size(); ++i) add_ranks(i);
    for (size_t i = 0; i < nodes_.size(); ++i) {
      if (!nodes_[i].node.waits.empty()) ++g.nodes_with_waits;
      for (const auto& e : nodes_[i].node.waits) {
        size_t w = waiter(i, e);
        size_t t = target(e);
        note_error(w, e.waiter_first_error_utc_us, i);
        note_error(w, e.first_utc_us, i);
        arcs_.push_back(WaitArc{w, t, {}});
        ++g.edges;
      }
    }
    for (size_t i = 0; i < nodes_.size(); ++i) note_findings(i);
    for (size_t r = 0; r < ranks_.size(); ++r)
      if (meta_[r].corrected) ranks_[r].first_error_utc = format_utc(*meta_[r].corrected);
    auto root = find_wait_root(static_cast<const std::vector<WaitRank>&>(ranks_), arcs_);
    std::set<size_t> in_graph;
    for (const auto& a : arcs_) in_graph.insert(a.waiter), in_graph.insert(a.target);
    g.ranks = in_graph.size();
    if (root) g.root = describe(*root);
    return g;
  }

 private:
  struct Meta {
    std::optional<size_t> node;  // index into nodes_; nullopt: no summary holds it
    std::optional<int64_t> pid;
    std::optional<int64_t> first, corrected;  // earliest error: node clock, fleet clock
  };
  using NodeKey = std::pair<size_t, std::string>;  // node, rank / device

  size_t add(std::optional<size_t> node, RankRef id, std::optional<int64_t> pid) {
    size_t r = ranks_.size();
    std::string host = node ? name(*node) : "";
    ranks_.push_back(WaitRank{host, RankRef{id.rank, "", id.device}, "", pid ? "pid " + std::to_string(*pid) : "", ""});
    meta_.push_back(Meta{node, pid, std::nullopt, std::nullopt});
    if (!id.rank.empty()) by_rank_[id.rank].push_back(r);
    if (node) {
      if (!id.rank.empty()) by_node_rank_.try_emplace({*node, id.rank}, r);
      if (!id.device.empty()) by_node_device_[{*node, id.device}].push_back(r);
      if (pid) by_node_pid_.try_emplace({*node, std::to_string(*pid)}, r);
    }
    set_ip(r, id.ip);
    return r;
  }

  void set_ip(size_t r, const std::string& ip) {
    if (ip.empty() || !ranks_[r].id.ip.empty()) return;
    ranks_[r].id.ip = ip;
    by_ip_[ip].push_back(r);
  }

  void set_device(size_t r, const std::string& dev) {
    if (dev.empty() || !ranks_[r].id.device.empty()) return;
    ranks_[r].id.device = dev;
    if (meta_[r].node) by_node_device_[{*meta_[r].node, dev}].push_back(r);
  }

  template <class Map>
  static std::optional<size_t> one(const Map& m, const typename Map::key_type& k) {
    auto it = m.find(k);
    if (it == m.end()) return std::nullopt;
    return it->second;
  }

  // The first rank of the node on `dev` (that no address names yet, when `unnamed`).
  std::optional<size_t> on_device(size_t node, const std::string& dev, bool unnamed = false) const {
    if (dev.empty()) return std::nullopt;
    auto it = by_node_device_.find({node, dev});
    if (it == by_node_device_.end()) return std::nullopt;
    for (size_t r : it->second)
      if (!unnamed || ranks_[r].id.ip.empty()) return r;
    return std::nullopt;
  }

  const std::string& name(size_t node) const { return ranked_[node].name; }

  static std::string device_text(const std::optional<int64_t>& d) { return d ? std::to_string(*d) : ""; }

  void add_ranks(size_t i) {
    const NodeSummary& n = nodes_[i].node;
    for (const auto& r : n.ranks)
      if (!by_node_rank_.count({i, r.rank})) add(i, RankRef{r.rank, "", device_text(r.device)}, r.pid);
    // The node's own addresses: on the rank they name, else on the rank with that device.
    for (const auto& a : n.addresses) {
      auto at = !a.rank.empty() ? one(by_node_rank_, {i, a.rank}) : on_device(i, device_text(a.device));
      if (at) set_ip(*at, a.ip);
    }
  }

  // The waiter: by the rank it names, its pid, its address, its device; else a new rank.
  size_t waiter(size_t i, const NodeWaitEdge& e) {
    auto [ip, dev] = split(e.waiter_address);
    if (dev.empty()) dev = device_text(e.waiter_device);
    std::optional<size_t> at;
    if (!e.waiter_rank.empty()) at = one(by_node_rank_, {i, e.waiter_rank});
    if (!at && e.waiter_pid) at = one(by_node_pid_, {i, std::to_string(*e.waiter_pid)});
    if (!at && !ip.empty())
      if (auto it = by_ip_.find(ip); it != by_ip_.end())
        for (size_t r : it->second)
          if (!at && meta_[r].node == i && ranks_[r].id.device == dev) at = r;
    if (!at && e.waiter_rank.empty()) at = on_device(i, dev);
    if (!at) at = add(i, RankRef{e.waiter_rank, "", dev}, e.waiter_pid);
    set_ip(*at, ip);
    set_device(*at, dev);
    return *at;
  }

  // The rank waited on: by rank number (the one at the named address when two nodes hold the
  // number), else by address and device, else on the node that lists the address as its own.
  size_t target(const NodeWaitEdge& e) {
    // Not a structured binding: clang 14 (the sanitized build) cannot capture one in a lambda.
    auto address = split(e.target_address);
    const std::string& ip = address.first;
    std::string& dev = address.second;
    auto same_address = [&](size_t r) {
      return !ip.empty() && ranks_[r].id.ip == ip && (dev.empty() || ranks_[r].id.device == dev);
    };
    std::optional<size_t> at;
    if (!e.target_rank.empty())
      if (auto it = by_rank_.find(e.target_rank); it != by_rank_.end())
        for (size_t r : it->second)
          if (!at || (same_address(r) && !same_address(*at))) at = r;
    if (!at && !ip.empty())
      if (auto it = by_ip_.find(ip); it != by_ip_.end())
        for (size_t r : it->second)
          if (!at && same_address(r) && (e.target_rank.empty() || ranks_[r].id.rank.empty())) at = r;
    if (!at && !ip.empty())
      if (auto it = node_of_ip_.find(ip); it != node_of_ip_.end()) {
        auto [i, held] = it->second;
        std::string held_dev = device_text(held->device);
        // An address of one rank (a device address, or a rank's own side of a line) on the
        // device named, or with none named: that rank. A LINK_ERROR_INFO row names no device.
        if (!held->rank.empty() && (dev.empty() || dev == held_dev)) at = one(by_node_rank_, {i, held->rank});
        if (dev.empty()) dev = held_dev;
        if (!at) at = on_device(i, dev);
        if (!at) at = add(i, RankRef{e.target_rank, "", dev}, std::nullopt);
        set_ip(*at, ip);
      }
    if (!at) {  // no summary holds it: one rank per what the waiters name
      auto key = e.target_rank + "\t" + ip + "\t" + dev;
      auto [it, fresh] = unheld_.try_emplace(key, 0);
      if (fresh) it->second = add(std::nullopt, RankRef{e.target_rank, ip, dev}, std::nullopt);
      at = it->second;
    }
    return *at;
  }

  void note_error(size_t r, const std::optional<int64_t>& t, size_t node) {
    if (!t) return;
    int64_t corrected = *t - correction_us(skews_[node]);
    if (!meta_[r].corrected || corrected < *meta_[r].corrected) meta_[r].first = *t, meta_[r].corrected = corrected;
  }

  // A rank's first error also comes from the node's findings (an origin's device exception
  // names no one it waits on): those of its pid, else of its rank, at error and above.
  void note_findings(size_t i) {
    for (const auto& f : nodes_[i].node.findings) {
      if (f.severity != "error" && f.severity != "critical") continue;
      auto at = f.pid ? one(by_node_pid_, {i, std::to_string(*f.pid)}) : std::nullopt;
      if (!at && !f.rank.empty()) at = one(by_node_rank_, {i, f.rank});
      if (at) note_error(*at, f.first_utc_us, i);
    }
  }

  FleetWaitRoot describe(const WaitRoot& root) {
    FleetWaitRoot out;
    const WaitRank& r = ranks_[root.rank];
    const Meta& m = meta_[root.rank];
    out.text = root.text;
    out.node = m.node ? name(*m.node) : "";
    out.rank = r.id.rank;
    out.address = r.id.ip.empty() ? "" : r.id.ip + (r.id.device.empty() ? "" : "/" + r.id.device);
    out.device = to_int(r.id.device);
    out.waiters = root.waiters;
    out.in_cycle = root.in_cycle;
    out.chain_length = root.chain.size();
    for (size_t k = root.chain.size() > kMaxChainLabels ? root.chain.size() - kMaxChainLabels : 0; k < root.chain.size(); ++k)
      out.chain.push_back(wait_rank_label(ranks_[root.chain[k]]));
    out.first_error_us = m.first;
    out.corrected_first_error_us = m.corrected;
    // The cause-first order's first node (origins before waiters, then corrected time).
    const RankedNode* first = nullptr;
    for (const auto& n : ranked_)
      if (n.first && (!first || std::make_tuple(role_rank(n.role), !n.corrected_first_us.has_value(),
                                                n.corrected_first_us.value_or(0), n.name) <
                                    std::make_tuple(role_rank(first->role), !first->corrected_first_us.has_value(),
                                                    first->corrected_first_us.value_or(0), first->name)))
        first = &n;
    out.compared = first != nullptr;
    if (out.node.empty()) {  // nothing of the root's own was read: say so, whatever else leads
      out.agrees = false;
      out.disagreement = "the wait graph roots at " + wait_rank_label(r) + ", a rank no summary holds" +
                         (first ? "; by cause and first error " + first->name + " failed first (" + first->role + ")"
                                : "; no node has a finding of its own");
    } else if (first && out.node != first->name) {
      out.agrees = false;
      out.disagreement = "the wait graph roots at " + wait_rank_label(r) + ", but by cause and first error " + first->name +
                         " failed first (" + first->role + (first->first ? ": " + first->first->id : "") + ")";
    }
    return out;
  }

  const std::vector<LoadedNode>& nodes_;
  const std::vector<RankedNode>& ranked_;  // in the order of nodes_ (not yet sorted)
  const std::vector<std::optional<NodeSkewEstimate>>& skews_;
  std::vector<WaitRank> ranks_;
  std::vector<Meta> meta_;
  std::vector<WaitArc> arcs_;
  std::map<NodeKey, size_t> by_node_rank_, by_node_pid_;
  std::map<NodeKey, std::vector<size_t>> by_node_device_;
  std::map<std::string, std::vector<size_t>> by_rank_, by_ip_;
  std::map<std::string, std::pair<size_t, const NodeAddress*>> node_of_ip_;  // the first node listing it
  std::map<std::string, size_t> unheld_;  // ranks no summary holds, by what the waiters name
};

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
  r.waits = FleetWaits(r.loaded, r.ranked, skews).build();
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
