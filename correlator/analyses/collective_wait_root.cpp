#include "correlator/analyses/collective_wait_root.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <re2/re2.h>

#include <memory>

#include "correlator/passes/marker_skew.h"
#include "correlator/passes/member_identity.h"
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
    const auto& bundles = ctx_.evidence.bundles;
    for (const auto& b : bundles) members_.push_back(read_member_identity(b, member_name(b)));
    size_t known = 0;
    for (const auto& m : members_) known += m.known();
    member_mode_ = known > 0;
    for (size_t i = 0; i < bundles.size(); ++i) read(bundles[i], i);
    // Targets once every member's ranks are known (a later input may hold the rank waited on).
    for (const auto& p : pending_) {
      size_t target = 0;
      if (auto md = member_mode_ ? resolve_member_device(members_, p.target, p.member) : std::nullopt)
        target = member_index(md->member, md->device);
      else if (p.target.rank.empty() && p.target.ip.empty())  // a device of its own server
        target = rank_index(members_[p.member].name, p.target, std::nullopt);
      else
        target = resolve_wait_target(ranks_, p.target);
      arcs_.push_back(WaitArc{p.waiter, target, p.evidence});
    }
    // One rank's lines: the collective finding names its peer; several members whose devices
    // are known: a wait of one on another is the graph.
    if (waiters_.size() >= 2 || (known >= 2 && !arcs_.empty()))
      if (auto root = find_wait_root(static_cast<const std::vector<WaitRank>&>(ranks_), arcs_)) {
        out.push_back(finding(*root));
        return;
      }
    if (!own_faults_.empty()) out.push_back(own_fault_finding());
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

  // A member's name: its host, else a directory's last path component (ascend-fd's
  // worker-N); a loose file is a paste, no member.
  static std::string member_name(const BundleFacts& b) {
    if (!b.host.empty()) return b.host;
    std::error_code ec;
    if (!std::filesystem::is_directory(b.input, ec)) return "";
    std::string_view in = b.input;
    while (in.size() > 1 && in.back() == '/') in.remove_suffix(1);
    if (auto slash = in.rfind('/'); slash != std::string_view::npos) in.remove_prefix(slash + 1);
    return std::string(in);
  }

  // The member's device whose process wrote a line: its identity lines, its device-N
  // directory, the device or address the line names as its own, the member's only device.
  std::string waiter_device(const MemberIdentity& m, std::optional<int64_t> pid, const RankRef& own,
                            const EvidenceRef& e) const {
    if (!own.device.empty() && own.ip.empty()) return own.device;
    if (pid)
      if (auto d = m.device_of_pid.find(*pid); d != m.device_of_pid.end()) return d->second;
    if (std::string d = device_of_entry(e.entry); !d.empty()) return d;
    if (!own.ip.empty())
      if (auto d = m.device_of_ip.find(own.ip); d != m.device_of_ip.end()) return d->second;
    return m.sole_device();
  }

  size_t member_index(size_t member, const std::string& device) {
    const MemberIdentity& m = members_[member];
    RankRef id;
    id.device = device;
    if (auto r = m.rank_of_device.find(device); r != m.rank_of_device.end()) id.rank = r->second;
    auto [it, fresh] = index_.try_emplace({m.name, "device " + device}, ranks_.size());
    if (fresh) ranks_.push_back(WaitRank{m.name, id, "", "", ""});
    return it->second;
  }

  void note_time(size_t at, std::optional<int64_t> t, const std::string& host) {
    if (!t) return;
    *t -= correction_[host];
    std::string iso = format_utc(*t);
    if (ranks_[at].first_error_utc.empty() || iso < ranks_[at].first_error_utc) ranks_[at].first_error_utc = iso;
  }
  void note_local(size_t at, std::optional<int64_t> t) {
    if (!t) return;
    std::string iso = format_utc(*t);
    if (ranks_[at].first_error_local.empty() || iso < ranks_[at].first_error_local) ranks_[at].first_error_local = iso;
  }

  void read(const BundleFacts& b, size_t mi) {
    const MemberIdentity& m = members_[mi];
    // Every process whose environment names its rank is a rank of the graph, so that a wait
    // on its address and device finds it although its own lines name no one.
    if (!m.known())
      for (const auto& [pid, p] : b.processes.by_pid)
        if (RankRef env = rank_of_process(b, pid); !env.rank.empty()) rank_index(m.name, env, pid);
    for (const auto& w : bundle_waits(b, table_)) {
      std::string device = m.known() ? waiter_device(m, w.pid, w.waiter, w.evidence) : "";
      size_t at = !device.empty() ? member_index(mi, device) : rank_index(m.name, w.waiter, w.pid);
      std::optional<int64_t> t = w.utc_us;
      if (w.first_error_utc_us && (!t || *w.first_error_utc_us < *t)) t = w.first_error_utc_us;
      note_time(at, t, b.host);
      note_local(at, w.first_local_us);
      waiters_.insert(at);
      pending_.push_back(Pending{at, mi, w.target, w.evidence});
    }
    // Lines that are their own device's fault (an error CQE): root candidates, no waits.
    for (const auto& hit : b.logs.signature_hits) {
      const WaitEdgeRow* row = table_.of_signature(hit.id);
      if (!row || !row->own_fault() || !m.known()) continue;
      std::string device = waiter_device(m, hit.pid, RankRef{}, hit.evidence);
      if (device.empty()) continue;
      size_t at = member_index(mi, device);
      if (hit.time.time.known()) note_time(at, hit.time.time.utc_us, b.host);
      if (hit.time.valid) note_local(at, civil_to_epoch_us(hit.time.civil));
      auto& fault = own_faults_[at];
      fault.host = b.host;
      if (fault.evidence.size() < 4) fault.evidence.push_back(hit.evidence);
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
      ranks_.push_back(WaitRank{host, r, "", pid ? fmt::format("pid {}", *pid) : "", ""});
    } else {
      RankRef& known = ranks_[it->second].id;  // a later line may name more of it
      if (known.ip.empty()) known.ip = r.ip;
      if (known.device.empty()) known.device = r.device;
    }
    return it->second;
  }

  // No wait names another rank, but devices reported faults of their own: they are the roots.
  Finding own_fault_finding() {
    std::vector<std::string> labels, devices;
    Finding f;
    f.id = "collective/wait-root";
    f.severity = Severity::error;
    f.confidence = Confidence::medium;
    for (const auto& [at, fault] : own_faults_) {
      labels.push_back(wait_rank_label(ranks_[at]));
      devices.push_back(ranks_[at].id.device);
      if (f.host.empty()) f.host = fault.host;
      for (const auto& e : fault.evidence) f.evidence.push_back(e);
    }
    const WaitRank& r = ranks_[own_faults_.begin()->first];
    std::string root = fmt::format("{}", fmt::join(labels, ", "));
    f.observed = fmt::format("{}: {} on {} own link{} (no wait line names another rank)", root,
                             "an error CQE", labels.size() == 1 ? "its" : "their", labels.size() == 1 ? "" : "s");
    f.value("root", root).value("waiters", "0").value("root_device", fmt::format("{}", fmt::join(devices, ",")));
    f.value("root_host", r.host).value("in_cycle", "no").value("own_fault", "yes");
    render_finding_words(f, ctx_.finding_texts, {{"root", root}}, "own-fault");
    return f;
  }

  Finding finding(const WaitRoot& root) {
    const WaitRank& r = ranks_[root.rank];
    Finding f;
    f.id = "collective/wait-root";
    f.severity = Severity::error;
    f.confidence = Confidence::medium;
    // A rank no log was read of: the finding sits with the first rank that waited on it.
    const std::string& named = !r.host.empty() ? r.host : ranks_[arcs_.front().waiter].host;
    f.host.clear();
    for (size_t i = 0; i < members_.size(); ++i)  // a member named after its input has no host
      if (members_[i].name == named) f.host = ctx_.evidence.bundles[i].host;
    std::vector<std::string> chain;
    for (size_t n : root.chain) chain.push_back(wait_rank_label(ranks_[n]));
    if (root.chain.size() > 1) f.value("chain", fmt::format("{}", fmt::join(chain, " -> ")));
    // The hosts whose ranks waited on the root (directly or through others): the verdict reads
    // their findings as waiting on it.
    std::set<std::string> waiting;
    std::vector<bool> reaches(ranks_.size());
    reaches[root.rank] = true;
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& a : arcs_)
        if (reaches[a.target] && !reaches[a.waiter]) reaches[a.waiter] = grew = true;
    }
    for (size_t n = 0; n < ranks_.size(); ++n)
      if (reaches[n] && n != root.rank)
        for (size_t i = 0; i < members_.size(); ++i)
          if (members_[i].name == ranks_[n].host && !ctx_.evidence.bundles[i].host.empty() &&
              ctx_.evidence.bundles[i].host != f.host)
            waiting.insert(ctx_.evidence.bundles[i].host);
    if (!waiting.empty()) f.value("waiter_hosts", fmt::format("{}", fmt::join(waiting, ",")));
    f.observed = root.text;
    f.value("root", wait_rank_label(r)).value("waiters", std::to_string(root.waiters));
    if (!r.id.rank.empty()) f.value("root_rank", r.id.rank);
    if (!r.id.ip.empty()) f.value("root_ip", r.id.ip);
    if (!r.id.device.empty()) f.value("root_device", r.id.device);
    f.value("root_host", r.host.empty() ? "(no log read)" : r.host);
    f.value("in_cycle", root.in_cycle ? "yes" : "no").value("own_fault", "no");
    if (!offsets_.empty()) f.value("clock_offsets", fmt::format("{}", fmt::join(offsets_, ", ")));
    f.evidence = root.evidence;
    render_finding_words(f, ctx_.finding_texts, {{"root", wait_rank_label(r)}}, root.in_cycle ? "cycle" : "");
    return f;
  }

  const AnalysisContext& ctx_;
  const WaitEdges& table_;
  std::vector<WaitRank> ranks_;
  struct Pending {
    size_t waiter = 0, member = 0;
    RankRef target;
    EvidenceRef evidence;
  };
  std::vector<Pending> pending_;
  std::vector<WaitArc> arcs_;
  std::vector<MemberIdentity> members_;
  bool member_mode_ = false;
  struct OwnFault {
    std::string host;
    std::vector<EvidenceRef> evidence;
  };
  std::map<size_t, OwnFault> own_faults_;  // rank -> its own fault lines
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
