#include "correlator/analyses/collective_wait_root.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "correlator/passes/wait_graph.h"
#include "knowledge/wait_edges.h"
#include "model/time.h"

namespace triage {
namespace {

class WaitRootAnalysis {
 public:
  WaitRootAnalysis(const AnalysisContext& ctx) : ctx_(ctx), table_(wait_edges_for(ctx.options.knowledge_dir)) {}

  void run(std::vector<Finding>& out) {
    for (const auto& b : ctx_.evidence.bundles) read(b);
    if (waiters_.size() < 2) return;  // one rank's lines: the collective finding names its peer
    auto root = find_wait_root(ranks_, edges_);
    if (!root) return;
    out.push_back(finding(*root));
  }

 private:
  void read(const BundleFacts& b) {
    // Every process whose environment names its rank is a rank of the graph, so that a wait
    // on its address and device finds it although its own lines name no one.
    for (const auto& [pid, p] : b.processes.by_pid)
      if (RankRef env = rank_of_process(b, pid); !env.rank.empty()) rank_index(b.host, env, pid);
    for (const auto& w : bundle_waits(b, table_)) {
      size_t at = rank_index(b.host, w.waiter, w.pid);
      std::optional<int64_t> t = w.utc_us;
      if (w.first_error_utc_us && (!t || *w.first_error_utc_us < *t)) t = w.first_error_utc_us;
      if (t) {
        std::string iso = format_utc(*t);
        if (ranks_[at].first_error_utc.empty() || iso < ranks_[at].first_error_utc) ranks_[at].first_error_utc = iso;
      }
      waiters_.insert(at);
      edges_.push_back(WaitEdge{at, w.target, w.evidence});
    }
  }

  // One rank per host and rank number, else per address and device, else per process.
  size_t rank_index(const std::string& host, const RankRef& r, std::optional<int64_t> pid) {
    std::string key = !r.rank.empty() ? "rank " + r.rank
                      : !r.ip.empty() ? "ip " + r.ip + "/" + r.device
                      : pid           ? fmt::format("pid {}", *pid)
                                      : "device " + r.device;
    auto [it, fresh] = index_.try_emplace({host, key}, ranks_.size());
    if (fresh) {
      ranks_.push_back(WaitRank{host, r, "", pid ? fmt::format("pid {}", *pid) : ""});
    } else {
      RankRef& known = ranks_[it->second].id;  // a later line may name more of it
      if (known.ip.empty()) known.ip = r.ip;
      if (known.device.empty()) known.device = r.device;
    }
    return it->second;
  }

  Finding finding(const WaitRoot& root) {
    const WaitRank& r = ranks_[root.rank];
    Finding f;
    f.id = "collective/wait-root";
    f.severity = Severity::error;
    f.confidence = Confidence::medium;
    // A rank no log was read of: the finding sits with the first rank that waited on it.
    f.host = !r.host.empty() ? r.host : ranks_[edges_.front().waiter].host;
    f.observed = root.text;
    f.value("root", wait_rank_label(r)).value("waiters", std::to_string(root.waiters));
    if (!r.id.rank.empty()) f.value("root_rank", r.id.rank);
    if (!r.id.ip.empty()) f.value("root_ip", r.id.ip);
    if (!r.id.device.empty()) f.value("root_device", r.id.device);
    f.value("root_host", r.host.empty() ? "(no log read)" : r.host);
    f.value("in_cycle", root.in_cycle ? "yes" : "no");
    f.evidence = root.evidence;
    render_finding_words(f, ctx_.finding_texts, {{"root", wait_rank_label(r)}}, root.in_cycle ? "cycle" : "");
    return f;
  }

  const AnalysisContext& ctx_;
  const WaitEdges& table_;
  std::vector<WaitRank> ranks_;
  std::vector<WaitEdge> edges_;
  std::set<size_t> waiters_;
  std::map<std::pair<std::string, std::string>, size_t> index_;
};

}  // namespace

void analyze_collective_wait_root(const AnalysisContext& ctx, std::vector<Finding>& out) {
  WaitRootAnalysis(ctx).run(out);
}

}  // namespace triage
