#include "correlator/summaries/node_summary.h"

#include <nettle/sha2.h>
#include <re2/re2.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "correlator/passes/wait_graph.h"
#include "knowledge/fleet_roles.h"
#include "model/strings.h"
#include "model/time.h"

namespace triage {

namespace {

std::optional<int64_t> to_int(const std::string* s) {
  if (!s || s->empty()) return std::nullopt;
  int64_t v = 0;
  for (char c : *s) {
    if (c < '0' || c > '9' || v > (int64_t{1} << 50)) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::optional<int64_t> to_int(const std::string& s) { return to_int(&s); }

// 16 hex digits of the sha256 of the sorted, distinct lines: the same chain, the same hash.
NodeFingerprint fingerprint(std::string name, std::set<std::string> lines) {
  NodeFingerprint fp{std::move(name), "", lines.size()};
  if (lines.empty()) return fp;
  sha256_ctx ctx;
  sha256_init(&ctx);
  for (const auto& l : lines) {
    sha256_update(&ctx, l.size(), reinterpret_cast<const uint8_t*>(l.data()));
    sha256_update(&ctx, 1, reinterpret_cast<const uint8_t*>("\n"));
  }
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, sizeof digest, digest);
  static const char* hex = "0123456789abcdef";
  for (int i = 0; i < 8; ++i) {
    fp.hash += hex[digest[i] >> 4];
    fp.hash += hex[digest[i] & 15];
  }
  return fp;
}

bool mentions_ascend(std::string_view path) {
  std::string lower(path);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.find("ascend") != std::string::npos || lower.find("cann") != std::string::npos;
}

// Module chain: each module file's resolved path and identity, and each resident copy's.
NodeFingerprint module_fingerprint(const HostGroup& g) {
  std::set<std::string> lines;
  for (const BundleFacts* b : g.bundles) {
    for (const auto& f : b->modules.files)
      lines.insert("file\t" + f.kver + "\t" + f.module + "\t" +
                   (f.resolved_path.empty() ? f.path : f.resolved_path) + "\t" + f.sha256 + "\t" +
                   f.build_id + "\t" + f.srcversion);
    for (const auto& r : b->modules.resident)
      lines.insert("resident\t" + r.name + "\t" + r.version + "\t" + r.srcversion + "\t" + r.build_id);
  }
  return fingerprint("modules", std::move(lines));
}

// Library chain: the Ascend/CANN files the node's processes mapped (paths as the kernel
// resolved them).
NodeFingerprint library_fingerprint(const HostGroup& g) {
  std::set<std::string> lines;
  for (const BundleFacts* b : g.bundles)
    for (const auto& [pid, p] : b->libraries.by_pid)
      for (const auto& f : p.files)
        if (mentions_ascend(f.path)) lines.insert(f.path);
  return fingerprint("libraries", std::move(lines));
}

class NodeBuilder {
 public:
  NodeBuilder(const Report& report, const HostGroup& group, const FleetRoles& roles, const WaitEdges& waits,
              const std::vector<std::pair<std::string, std::unique_ptr<RE2>>>& markers)
      : report_(report), group_(group), roles_(roles), wait_table_(waits), markers_(markers) {}

  NodeSummary build() {
    s_.host = group_.host;
    for (const BundleFacts* b : group_.bundles) s_.inputs.push_back(b->input);
    boots();
    ranks();
    findings();
    skews();
    versions();
    s_.fingerprints = {module_fingerprint(group_), library_fingerprint(group_)};
    collectives();
    waits();
    addresses();
    return std::move(s_);
  }

 private:
  bool ours(const std::string& host) const { return host == group_.host; }

  void boots() {
    for (const auto& b : report_.timeline.boots)
      if (ours(b.host)) s_.boots.push_back({b.boot_id, b.start_utc_us});
    for (const BundleFacts* b : group_.bundles) {
      const auto& id = b->system.boot_id;
      bool known = id.empty() || std::any_of(s_.boots.begin(), s_.boots.end(),
                                             [&](const NodeBoot& nb) { return nb.boot_id == id; });
      if (!known)
        s_.boots.push_back({id, b->system.btime ? std::optional<int64_t>(*b->system.btime * 1000000) : std::nullopt});
    }
  }

  void ranks() {
    std::set<int64_t> pids, devices;
    for (const BundleFacts* b : group_.bundles)
      for (const auto& [pid, p] : b->processes.by_pid) {
        pids.insert(pid);
        const std::string* rank = p.env("RANK");
        if (!rank) rank = p.env("RANK_ID");
        std::optional<int64_t> device = to_int(p.env("DEVICE_ID"));
        if (!device) device = to_int(p.env("LOCAL_RANK"));
        if (device) devices.insert(*device);
        if (rank) s_.ranks.push_back({*rank, pid, device});
      }
    for (const auto& f : report_.findings) {
      if (!ours(f.host)) continue;
      if (auto pid = to_int(f.find_value("pid")); pid && *pid > 0) pids.insert(*pid);
      if (auto d = to_int(f.find_value("device"))) devices.insert(*d);
    }
    s_.pids.assign(pids.begin(), pids.end());
    s_.devices.assign(devices.begin(), devices.end());
  }

  void findings() {
    // First and last time of each finding, from the timeline rows that cite its lines: by id
    // and pid (one finding per process shares its id with the others), and by id alone.
    std::map<std::pair<std::string, std::optional<int64_t>>, std::tuple<int64_t, int64_t, std::string>> when;
    auto note = [&](const TimelineEvent& e, std::pair<std::string, std::optional<int64_t>> key) {
      auto [it, fresh] = when.try_emplace(std::move(key), e.first_utc_us, e.last_utc_us, e.source);
      auto& [first, last, clock] = it->second;
      if (!fresh && e.first_utc_us < first) first = e.first_utc_us, clock = e.source;
      last = std::max(last, e.last_utc_us);
    };
    for (const auto& e : report_.timeline.events) {
      if (!ours(e.host)) continue;
      for (const auto& id : e.finding_ids) {
        note(e, {id, std::nullopt});
        if (e.pid) note(e, {id, e.pid});
      }
    }
    for (const auto& f : report_.findings) {
      if (!ours(f.host) || f.severity < Severity::warning) continue;
      NodeFinding n;
      n.id = f.id;
      n.severity = std::string(to_string(f.severity));
      n.title = f.title;
      const FleetRoleRow* row = roles_.of_finding(f.id);
      n.klass = row ? row->klass : "other";
      n.role = row ? row->role : "context";
      n.pid = to_int(f.find_value("pid"));
      auto it = n.pid ? when.find({f.id, n.pid}) : when.end();
      if (it == when.end()) it = when.find({f.id, std::nullopt});
      if (it != when.end()) {
        n.first_utc_us = std::get<0>(it->second);
        n.last_utc_us = std::get<1>(it->second);
        n.clock = std::get<2>(it->second);
      } else if (const std::string* t = f.find_value("first_utc")) {
        n.first_utc_us = n.last_utc_us = parse_iso8601_utc_us(*t);
        if (n.first_utc_us) n.clock = "finding";
      }
      n.device = to_int(f.find_value("device"));
      if (n.pid)
        for (const auto& r : s_.ranks)
          if (r.pid == *n.pid) {
            n.rank = r.rank;
            if (!n.device) n.device = r.device;  // the device the process's environment names
          }
      s_.findings.push_back(std::move(n));
    }
    std::stable_sort(s_.findings.begin(), s_.findings.end(), [](const NodeFinding& a, const NodeFinding& b) {
      int64_t ta = a.first_utc_us.value_or(INT64_MAX), tb = b.first_utc_us.value_or(INT64_MAX);
      return std::tie(ta, a.id) < std::tie(tb, b.id);
    });
  }

  void skews() {
    for (const auto& k : report_.timeline.skews)
      if (ours(k.host))
        s_.skews.push_back({k.source_a, k.source_b, k.method,
                            static_cast<int64_t>(k.b_minus_a_seconds * 1000.0)});
  }

  void versions() {
    std::set<std::string> seen;
    for (size_t i = 0; i < report_.bundles.size(); ++i) {
      if (!ours(report_.bundles[i].host)) continue;
      for (const auto& v : report_.bundles[i].versions)
        if (seen.insert(v.component).second) s_.versions.push_back({v.component, v.version});
    }
  }

  void collectives() {
    std::map<std::string, CollectiveMarker> by_key;
    std::string group;
    for (const auto& e : report_.timeline.events) {
      if (!ours(e.host)) continue;
      for (const auto& [name, re] : markers_) {
        if (!RE2::PartialMatch(e.evidence.excerpt, *re, &group)) continue;
        std::string key = name + ":" + group;
        auto [it, fresh] = by_key.try_emplace(key, CollectiveMarker{key, e.first_utc_us, e.source, 0});
        if (e.first_utc_us < it->second.first_utc_us) {
          it->second.first_utc_us = e.first_utc_us;
          it->second.clock = e.source;
        }
        it->second.count += e.count;
      }
    }
    for (auto& [k, m] : by_key) s_.collectives.push_back(std::move(m));
  }

  static std::string address_of(const RankRef& r) { return r.ip.empty() ? "" : r.ip + (r.device.empty() ? "" : "/" + r.device); }

  // The wait lines, one edge per waiter, target and signature (earliest time, count); the
  // earliest kMaxNodeWaitEdges are kept.
  void waits() {
    using Key = std::tuple<std::string, std::string, std::optional<int64_t>, std::optional<int64_t>, std::string,
                           std::string, std::string>;
    std::map<Key, NodeWaitEdge> by_key;
    for (const BundleFacts* b : group_.bundles)
      for (const auto& w : bundle_waits(*b, wait_table_)) {
        // A device of the node's own server (a P2P wait): the summary names targets by rank
        // or address only, and fleet's graph is between nodes.
        if (w.target.rank.empty() && w.target.ip.empty()) continue;
        NodeWaitEdge e;
        e.signature = w.signature;
        e.waiter_rank = w.waiter.rank;
        e.waiter_pid = w.pid;
        e.waiter_device = to_int(w.waiter.device);
        e.waiter_address = address_of(w.waiter);
        e.target_rank = w.target.rank;
        e.target_address = address_of(w.target);
        Key k{e.signature, e.waiter_rank, e.waiter_pid, e.waiter_device, e.waiter_address, e.target_rank, e.target_address};
        auto [it, fresh] = by_key.try_emplace(k, e);
        NodeWaitEdge& x = it->second;
        if (w.utc_us && (!x.first_utc_us || *w.utc_us < *x.first_utc_us)) x.first_utc_us = w.utc_us, x.clock = w.source;
        if (w.first_error_utc_us && (!x.waiter_first_error_utc_us || *w.first_error_utc_us < *x.waiter_first_error_utc_us))
          x.waiter_first_error_utc_us = w.first_error_utc_us;
        if (x.clock.empty()) x.clock = w.source;
        ++x.count;
      }
    for (auto& [k, e] : by_key) s_.waits.push_back(std::move(e));
    std::stable_sort(s_.waits.begin(), s_.waits.end(), [](const NodeWaitEdge& a, const NodeWaitEdge& b) {
      return a.first_utc_us.value_or(INT64_MAX) < b.first_utc_us.value_or(INT64_MAX);
    });
    if (s_.waits.size() > kMaxNodeWaitEdges) s_.waits.resize(kMaxNodeWaitEdges);
  }

  // The node's own addresses: its ranks' side of its wait lines, its ranks' rank-table
  // entries, and its devices' hccn_tool -ip.
  void addresses() {
    std::set<std::tuple<std::string, std::optional<int64_t>, std::string, std::string>> seen;
    auto add = [&](const std::string& ip, std::optional<int64_t> device, const std::string& rank, const char* source) {
      if (ip.empty() || ip.find('*') != std::string::npos || seen.size() >= kMaxNodeAddresses) return;
      if (seen.insert({ip, device, rank, source}).second) s_.addresses.push_back({ip, device, rank, source});
    };
    for (const auto& w : s_.waits) {
      if (w.waiter_address.empty()) continue;
      size_t slash = w.waiter_address.find('/');
      std::optional<int64_t> device = w.waiter_device;
      add(w.waiter_address.substr(0, slash), device, w.waiter_rank, "log");
    }
    // The rank table a process names lists every server's ranks: the entries of this node's
    // own ranks (by rank id) give their device address and server address.
    for (const BundleFacts* b : group_.bundles)
      for (const auto& table : b->network.rank_tables)
        for (const auto& d : table.devices) {
          bool ours = std::any_of(s_.ranks.begin(), s_.ranks.end(), [&](const NodeRank& r) { return r.rank == d.rank_id; });
          if (!ours || d.rank_id.empty()) continue;
          add(d.device_ip, to_int(d.device_id), d.rank_id, "rank-table");
          add(d.server_id, std::nullopt, "", "rank-table");  // the server: every rank of the node
        }
    for (const BundleFacts* b : group_.bundles)
      for (const auto& [device, port] : b->network.hccn) {
        std::string rank;
        for (const auto& r : s_.ranks)
          if (r.device == device) rank = r.rank;
        add(port.ip, device, rank, "hccn");
      }
  }

  const Report& report_;
  const HostGroup& group_;
  const FleetRoles& roles_;
  const WaitEdges& wait_table_;
  const std::vector<std::pair<std::string, std::unique_ptr<RE2>>>& markers_;
  NodeSummary s_;
};

}  // namespace

std::vector<NodeSummary> summarize_nodes(const Report& report, const EvidenceSet& evidence,
                                         const FleetRoles& roles, const WaitEdges& waits) {
  std::vector<std::pair<std::string, std::unique_ptr<RE2>>> markers;
  for (const auto& r : roles.rows)
    if (r.match == "marker") markers.emplace_back(r.klass, std::make_unique<RE2>(r.text, RE2::Quiet));
  std::vector<NodeSummary> out;
  for (const HostGroup& g : evidence.groups()) out.push_back(NodeBuilder(report, g, roles, waits, markers).build());
  return out;
}

}  // namespace triage
