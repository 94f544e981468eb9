#include "correlator/analyses/collective_wait_root.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include <re2/re2.h>

#include <memory>

#include "correlator/passes/marker_skew.h"
#include "correlator/passes/wait_graph.h"
#include "knowledge/fleet_roles.h"
#include "knowledge/wait_edges.h"
#include "model/time.h"

namespace triage {
namespace {

class WaitRootAnalysis {
 public:
  WaitRootAnalysis(const AnalysisContext& ctx) : ctx_(ctx), table_(wait_edges_for(ctx.options.knowledge_dir)) {}

  void run(std::vector<Finding>& out) {
    measure_skews();
    for (const auto& b : ctx_.evidence.bundles) read(b);
    if (waiters_.size() < 2) return;  // one rank's lines: the collective finding names its peer
    auto root = find_wait_root(ranks_, edges_);
    if (!root) return;
    out.push_back(finding(*root));
  }

 private:
  // With bundles of several hosts, each host's clock offset from the collectives they logged
  // (the marker rows of fleet-roles.tsv over the signature hits' lines), as `fleet` measures
  // it: a rank's first error is compared on the corrected clock (the cycle rule, ties).
  void measure_skews() {
    std::vector<std::pair<std::string, std::unique_ptr<RE2>>> res;
    for (const auto& r : fleet_roles_for(ctx_.options.knowledge_dir).rows)
      if (r.match == "marker") res.emplace_back(r.klass, std::make_unique<RE2>(r.text, RE2::Quiet));
    std::map<std::string, std::map<std::string, int64_t>> by_host;  // host -> key -> first time
    std::string group;
    for (const auto& b : ctx_.evidence.bundles)
      for (const auto& hit : b.logs.signature_hits) {
        if (!hit.time.time.known()) continue;
        for (const auto& [name, re] : res) {
          if (!re->ok() || !RE2::PartialMatch(hit.evidence.excerpt, *re, &group)) continue;
          auto [it, fresh] = by_host[b.host].try_emplace(name + ":" + group, hit.time.time.utc_us);
          if (!fresh) it->second = std::min(it->second, hit.time.time.utc_us);
        }
      }
    if (by_host.size() < 2) return;
    std::vector<std::string> hosts;
    std::vector<std::vector<std::pair<std::string, int64_t>>> markers;
    for (const auto& [host, keys] : by_host) {
      hosts.push_back(host);
      markers.emplace_back(keys.begin(), keys.end());
    }
    size_t shared = 0;
    auto skews = estimate_marker_skews(markers, shared);
    for (size_t i = 0; i < hosts.size(); ++i)
      if (int64_t c = applied_correction_us(skews[i]); c != 0) {
        correction_[hosts[i]] = c;
        offsets_.push_back(fmt::format("{} {:+.1f} s", hosts[i], skews[i]->offset_ms / 1000.0));
      }
  }

  void read(const BundleFacts& b) {
    // Every process whose environment names its rank is a rank of the graph, so that a wait
    // on its address and device finds it although its own lines name no one.
    for (const auto& [pid, p] : b.processes.by_pid)
      if (RankRef env = rank_of_process(b, pid); !env.rank.empty()) rank_index(b.host, env, pid);
    for (const auto& w : bundle_waits(b, table_)) {
      size_t at = rank_index(b.host, w.waiter, w.pid);
      std::optional<int64_t> t = w.utc_us;
      if (w.first_error_utc_us && (!t || *w.first_error_utc_us < *t)) t = w.first_error_utc_us;
      if (t) *t -= correction_[b.host];
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
    if (!offsets_.empty()) f.value("clock_offsets", fmt::format("{}", fmt::join(offsets_, ", ")));
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
  std::map<std::string, int64_t> correction_;  // host -> microseconds to subtract
  std::vector<std::string> offsets_;           // "node3 +300.2 s", the applied ones
};

}  // namespace

void analyze_collective_wait_root(const AnalysisContext& ctx, std::vector<Finding>& out) {
  WaitRootAnalysis(ctx).run(out);
}

}  // namespace triage
