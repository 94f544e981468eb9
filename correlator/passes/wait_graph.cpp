#include "correlator/passes/wait_graph.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "model/time.h"

namespace triage {
namespace {

constexpr size_t kMaxEvidence = 8;
constexpr size_t kMaxChainShown = 8;  // labels of a longer chain: the first 2, the last 5

bool same_rank(const RankRef& known, const RankRef& target) {
  if (!target.rank.empty()) return known.rank == target.rank;
  return !target.ip.empty() && known.ip == target.ip && (target.device.empty() || known.device == target.device);
}

}  // namespace

size_t resolve_wait_target(std::vector<WaitRank>& ranks, const RankRef& target) {
  for (size_t i = 0; i < ranks.size(); ++i)
    if (same_rank(ranks[i].id, target)) return i;
  // An address another rank of a host has as its own ("10.0.0.3/0" waits on "10.0.0.3/1"):
  // the rank of that host on the named device, whose own lines named no address.
  if (target.rank.empty() && !target.ip.empty() && !target.device.empty())
    for (const auto& known : ranks)
      if (!known.host.empty() && known.id.ip == target.ip)
        for (size_t i = 0; i < ranks.size(); ++i)
          if (ranks[i].host == known.host && ranks[i].id.ip.empty() && ranks[i].id.device == target.device) {
            ranks[i].id.ip = target.ip;
            return i;
          }
  ranks.push_back(WaitRank{"", target, "", "", ""});
  return ranks.size() - 1;
}

namespace {

// The arcs as reverse adjacency: into[n] = the distinct ranks that wait on n directly.
struct Graph {
  std::vector<std::vector<size_t>> into;
  std::vector<size_t> out_degree;
  Graph(size_t ranks, const std::vector<std::pair<size_t, size_t>>& arcs) : into(ranks), out_degree(ranks) {
    std::set<std::pair<size_t, size_t>> seen;
    for (const auto& [from, to] : arcs)
      if (seen.insert({from, to}).second) into[to].push_back(from), ++out_degree[from];
  }

  // Every rank that reaches `to` along the arcs (its waiters, directly or not), without `to`.
  std::vector<bool> waiters_of(size_t to, size_t& count) const {
    std::vector<bool> seen(into.size());
    std::vector<size_t> todo{to};
    count = 0;
    while (!todo.empty()) {
      size_t n = todo.back();
      todo.pop_back();
      for (size_t from : into[n])
        if (from != to && !seen[from]) seen[from] = true, ++count, todo.push_back(from);
    }
    return seen;
  }
  size_t count_waiters(size_t to) const {
    size_t c = 0;
    waiters_of(to, c);
    return c;
  }
  // Whether `n` waits on itself through others (it is in a cycle): its strongly connected
  // component has more than one rank (Kosaraju, iterative, computed once).
  bool in_cycle(size_t n) const {
    if (component.empty()) components();
    return component_size[component[n]] > 1;
  }

 private:
  mutable std::vector<size_t> component, component_size;
  void components() const {
    size_t count = into.size();
    std::vector<std::vector<size_t>> out(count);
    for (size_t to = 0; to < count; ++to)
      for (size_t from : into[to]) out[from].push_back(to);
    std::vector<size_t> order;
    std::vector<bool> seen(count);
    for (size_t start = 0; start < count; ++start) {
      if (seen[start]) continue;
      std::vector<std::pair<size_t, size_t>> stack{{start, 0}};  // rank, next out-arc
      seen[start] = true;
      while (!stack.empty()) {
        auto& [n, next] = stack.back();
        if (next < out[n].size()) {
          size_t m = out[n][next++];
          if (!seen[m]) seen[m] = true, stack.push_back({m, 0});
        } else {
          order.push_back(n);
          stack.pop_back();
        }
      }
    }
    component.assign(count, SIZE_MAX);
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      if (component[*it] != SIZE_MAX) continue;
      size_t id = component_size.size();
      component_size.push_back(0);
      std::vector<size_t> todo{*it};
      component[*it] = id;
      while (!todo.empty()) {
        size_t n = todo.back();
        todo.pop_back();
        ++component_size[id];
        for (size_t from : into[n])
          if (component[from] == SIZE_MAX) component[from] = id, todo.push_back(from);
      }
    }
  }
};

// Earlier known first error first; unknown last; then the order the ranks were given.
bool earlier(const WaitRank& a, size_t ia, const WaitRank& b, size_t ib) {
  if (a.first_error_utc.empty() != b.first_error_utc.empty()) return !a.first_error_utc.empty();
  if (a.first_error_utc != b.first_error_utc) return a.first_error_utc < b.first_error_utc;
  if (a.first_error_utc.empty() && !a.first_error_local.empty() && !b.first_error_local.empty() &&
      a.first_error_local != b.first_error_local)
    return a.first_error_local < b.first_error_local;
  return ia < ib;
}

// The longest wait path that ends at the root: at each step back, the waiter with most
// waiters of its own (the lower index on a tie).
std::vector<size_t> chain_to(size_t root, const Graph& g) {
  std::vector<size_t> chain{root};
  std::set<size_t> used{root};
  std::map<size_t, size_t> depth;  // memo: waiters of a rank + 1
  for (;;) {
    size_t best = SIZE_MAX, best_depth = 0;
    size_t candidates = 0;
    for (size_t from : g.into[chain.back()]) candidates += !used.count(from);
    for (size_t from : g.into[chain.back()]) {
      if (used.count(from)) continue;
      if (candidates == 1) {  // no choice: no need to count its waiters
        best = from;
        break;
      }
      auto [it, fresh] = depth.try_emplace(from, 0);
      if (fresh) it->second = g.count_waiters(from) + 1;
      if (best == SIZE_MAX || it->second > best_depth || (it->second == best_depth && from < best))
        best = from, best_depth = it->second;
    }
    if (best == SIZE_MAX) break;
    chain.push_back(best);
    used.insert(best);
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

}  // namespace

std::string wait_rank_label(const WaitRank& r) {
  std::string s;
  if (!r.id.rank.empty()) s = "rank " + r.id.rank;
  if (!r.id.rank.empty() && !r.id.device.empty()) s += " dev " + r.id.device;
  if (r.id.rank.empty() && !r.id.ip.empty()) s = r.id.ip + (r.id.device.empty() ? "" : "/" + r.id.device);
  if (r.id.rank.empty() && r.id.ip.empty()) s = r.id.device.empty() ? r.process : "dev " + r.id.device;
  if (!r.host.empty()) s += " on " + r.host;
  else if (!r.id.rank.empty() && !r.id.ip.empty()) s += " at " + r.id.ip;  // no log of it: where it is
  return s;
}

std::optional<WaitRoot> find_wait_root(std::vector<WaitRank>& ranks, const std::vector<WaitEdge>& edges) {
  std::vector<WaitArc> arcs;
  for (const auto& e : edges) arcs.push_back(WaitArc{e.waiter, resolve_wait_target(ranks, e.target), e.evidence});
  return find_wait_root(static_cast<const std::vector<WaitRank>&>(ranks), arcs);
}

std::optional<WaitRoot> find_wait_root(const std::vector<WaitRank>& ranks, const std::vector<WaitArc>& given) {
  std::vector<std::pair<size_t, size_t>> arcs;  // (waiter, waited on), one per arc
  std::vector<size_t> arc_of;
  for (size_t a = 0; a < given.size(); ++a) {
    if (given[a].target == given[a].waiter) continue;  // a rank naming itself waits on no one
    if (given[a].waiter >= ranks.size() || given[a].target >= ranks.size()) continue;
    arcs.emplace_back(given[a].waiter, given[a].target);
    arc_of.push_back(a);
  }
  if (arcs.empty()) return std::nullopt;
  Graph g(ranks.size(), arcs);
  std::optional<WaitRoot> root;
  auto consider = [&](size_t n, bool cycle) {
    size_t count = g.count_waiters(n);
    if (count == 0) return;
    if (!root || count > root->waiters || (count == root->waiters && earlier(ranks[n], n, ranks[root->rank], root->rank)))
      root = WaitRoot{n, count, cycle, {}, {}, {}};
  };
  for (size_t n = 0; n < ranks.size(); ++n)
    if (g.out_degree[n] == 0 && !g.into[n].empty()) consider(n, false);
  // Every waited-on rank waits too: a cycle; its first error is the root. A cycle among ranks
  // whose logs were read also outranks a rank no log was read of that as few ranks waited on
  // (an address outside the inputs: its lines may hold nothing).
  std::optional<size_t> first;
  for (size_t n = 0; n < ranks.size(); ++n)
    if (g.in_cycle(n) && !ranks[n].host.empty() && (!first || earlier(ranks[n], n, ranks[*first], *first))) first = n;
  if (!first && !root)
    for (size_t n = 0; n < ranks.size(); ++n)
      if (g.in_cycle(n) && (!first || earlier(ranks[n], n, ranks[*first], *first))) first = n;
  if (first && (!root || (ranks[root->rank].host.empty() && g.count_waiters(*first) >= root->waiters)))
    root = WaitRoot{*first, g.count_waiters(*first), true, {}, {}, {}};
  if (!root) return std::nullopt;
  root->chain = chain_to(root->rank, g);
  const auto& chain = root->chain;
  std::vector<bool> on_chain(ranks.size());
  for (size_t n : chain) on_chain[n] = true;
  std::vector<std::string> labels;
  for (size_t n : chain) labels.push_back(wait_rank_label(ranks[n]));
  root->text = fmt::format("{}: {} rank{} waited on it{}", wait_rank_label(ranks[root->rank]), root->waiters,
                           root->waiters == 1 ? "" : "s", root->in_cycle ? " (the first error in a cycle of waits)" : "");
  if (chain.size() > kMaxChainShown) {  // a chain of thousands of ranks: its ends
    std::vector<std::string> ends(labels.begin(), labels.begin() + 2);
    ends.push_back(fmt::format("... {} more ...", labels.size() - kMaxChainShown + 1));
    ends.insert(ends.end(), labels.end() - static_cast<std::ptrdiff_t>(kMaxChainShown - 3), labels.end());
    root->text += fmt::format(" (chain of {} ranks: {})", labels.size(), fmt::join(ends, " -> "));
  } else if (chain.size() > 2) {
    root->text += fmt::format(" (chain: {})", fmt::join(labels, " -> "));
  }
  // Evidence: the waits into the root first, then those along the chain.
  for (int pass = 0; pass < 2; ++pass)
    for (size_t a = 0; a < arcs.size() && root->evidence.size() < kMaxEvidence; ++a) {
      bool into_root = arcs[a].second == root->rank;
      bool along = on_chain[arcs[a].second] && on_chain[arcs[a].first];
      if (pass == 0 ? into_root : (!into_root && along)) root->evidence.push_back(given[arc_of[a]].evidence);
    }
  return root;
}

RankRef rank_of_process(const BundleFacts& b, std::optional<int64_t> pid) {
  RankRef r;
  if (!pid) return r;
  auto it = b.processes.by_pid.find(*pid);
  if (it == b.processes.by_pid.end()) return r;
  const auto& p = it->second;
  for (auto key : {"RANK", "RANK_ID"})
    if (const std::string* v = p.env(key); v && r.rank.empty()) r.rank = *v;
  for (auto key : {"DEVICE_ID", "LOCAL_RANK"})
    if (const std::string* v = p.env(key); v && r.device.empty()) r.device = *v;
  return r;
}

std::vector<BundleWait> bundle_waits(const BundleFacts& b, const WaitEdges& table) {
  // A rank's first error is its process's earliest error hit, not only its first wait line:
  // in a cycle of waits the rank that failed first is the root.
  std::map<int64_t, int64_t> first_error, first_local;
  for (const auto& hit : b.logs.signature_hits) {
    if (!hit.pid || (hit.severity != "error" && hit.severity != "critical")) continue;
    if (hit.time.time.known()) {
      auto [it, fresh] = first_error.try_emplace(*hit.pid, hit.time.time.utc_us);
      if (!fresh) it->second = std::min(it->second, hit.time.time.utc_us);
    }
    if (hit.time.valid) {
      int64_t local = civil_to_epoch_us(hit.time.civil);
      auto [it, fresh] = first_local.try_emplace(*hit.pid, local);
      if (!fresh) it->second = std::min(it->second, local);
    }
  }
  std::vector<BundleWait> out;
  for (const auto& hit : b.logs.signature_hits) {
    auto m = table.edge(hit.id, hit.captures);
    if (!m) continue;
    BundleWait w;
    w.signature = m->signature;
    w.target = m->target;
    w.waiter = m->waiter;
    RankRef env = rank_of_process(b, hit.pid);
    if (w.waiter.rank.empty()) w.waiter.rank = env.rank;
    if (w.waiter.device.empty() && w.waiter.ip.empty()) w.waiter.device = env.device;
    w.pid = hit.pid;
    if (hit.time.time.known()) w.utc_us = hit.time.time.utc_us;
    if (hit.pid)
      if (auto it = first_error.find(*hit.pid); it != first_error.end()) w.first_error_utc_us = it->second;
    if (hit.time.valid) w.first_local_us = civil_to_epoch_us(hit.time.civil);
    if (hit.pid)
      if (auto it = first_local.find(*hit.pid); it != first_local.end() && (!w.first_local_us || it->second < *w.first_local_us))
        w.first_local_us = it->second;
    w.source = hit.source.empty() ? "plog" : hit.source;  // the plog reader leaves its own empty
    w.evidence = hit.evidence;
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace triage
