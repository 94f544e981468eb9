// collective: collective-communication failures split by what the lines show: a wait that
// timed out (with the timeout the line prints and the HCCL_* values of the process), a peer
// that was lost, a link or socket that could not be set up, a rank table that does not fit
// the host, a device or port still held by an earlier job, an SDMA / RoCE transport error,
// and arguments that differ between ranks. Signature ids and CANN message codes
// decide the class by the rows of knowledge/collective-classes.tsv; the text of a CANN error report
// printed in job output is matched with the same signatures.
#include "correlator/analyses/collective.h"
#include "correlator/analyses/collective_arrival.h"
#include "correlator/analyses/collective_settings.h"
#include "correlator/analyses/collective_wait_site.h"
#include "correlator/analyses/port_health.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "knowledge/collective_classes.h"
#include "knowledge/finding_texts.h"
#include "knowledge/knowledge.h"

namespace triage {
namespace {

// The words of each class (title, supports, limits, next checks) are data:
// knowledge/findings/collective.tsv. The table holds what the analysis decides, the level.
struct Class {
  std::string_view id;
  Severity severity;
};

const std::array kClasses = {
    Class{"collective/wait-timeout", Severity::error},    Class{"collective/peer-lost", Severity::error},
    Class{"collective/link-setup", Severity::error},      Class{"collective/socket-close", Severity::warning},
    Class{"collective/rank-table", Severity::error},      Class{"collective/device-held", Severity::error},
    Class{"collective/transport-error", Severity::error}, Class{"collective/mismatch", Severity::error},
    Class{"collective/store-timeout", Severity::error},
};

const Class* class_of(std::string_view id) {
  for (const auto& c : kClasses)
    if (c.id == id) return &c;
  return nullptr;
}

struct Seen {
  std::vector<EvidenceRef> evidence;
  std::set<std::string> sources;  // "HCCL:hccl/transport-init", "code EI0006"
  std::vector<std::pair<std::string, std::string>> values;
  std::set<std::pair<std::string, uint64_t>> cited;  // (entry, line): a line read three ways is one line
  size_t lines = 0;
};

void note(Seen& s, const EvidenceRef& e, std::string source) {
  s.sources.insert(std::move(source));
  if (!s.cited.insert({e.entry, e.line}).second) return;
  ++s.lines;
  if (s.evidence.size() < 8) s.evidence.push_back(e);
}

void keep_value(Seen& s, std::string key, std::string v) {
  if (v.empty()) return;
  for (const auto& [k, x] : s.values)
    if (k == key && x == v) return;
  if (s.values.size() < 24) s.values.emplace_back(std::move(key), std::move(v));
}

// Where the lost peer is: "this host" when every line's peer has its discoverer's address (a
// device of the same server: the fault may be this host's own), "another host" when a line's
// differs, "unknown" when a line names no discoverer. One value, the weakest claim of the lines.
void note_lost_peer_host(Seen& s, const std::string& peer, const std::string& discoverer) {
  auto ip = [](const std::string& a) { return a.substr(0, a.find('/')); };
  std::string where = peer.empty() || discoverer.empty() ? "unknown"
                      : ip(peer) == ip(discoverer)        ? "this host"
                                                          : "another host";
  for (auto& [k, v] : s.values)
    if (k == "lost_peer") {
      if (v == "another host" || where == "another host") v = "another host";
      else if (v != where) v = "unknown";
      return;
    }
  if (s.values.size() < 24) s.values.emplace_back("lost_peer", where);
}

// c10d store: how long it waited, how many ranks joined of how many, the store it tried.
void store_captures(Seen& s, const std::vector<std::pair<std::string, std::string>>& caps) {
  if (auto t = capture_of(caps, "timeout"); !t.empty()) keep_value(s, "store_timeout", t + "s");
  if (auto t = capture_of(caps, "wait_ms"); !t.empty()) keep_value(s, "store_timeout", t + "ms");
  if (auto t = capture_of(caps, "connect_ms"); !t.empty()) keep_value(s, "store_timeout", t + "ms");
  if (auto t = capture_of(caps, "barrier_timeout"); !t.empty()) keep_value(s, "store_timeout", t);
  auto joined = capture_of(caps, "joined").empty() ? capture_of(caps, "barrier_joined") : capture_of(caps, "joined");
  auto world = capture_of(caps, "world").empty() ? capture_of(caps, "barrier_world") : capture_of(caps, "world");
  if (!joined.empty() && !world.empty()) keep_value(s, "ranks_joined", joined + "/" + world);
  keep_value(s, "store_address", capture_of(caps, "store"));
}

// The captures that matter to a class, as finding values.
void keep_captures(Seen& s, std::string_view cls,
                   const std::vector<std::pair<std::string, std::string>>& caps) {
  if (cls == "collective/wait-timeout") {
    if (auto t = capture_of(caps, "timeout"); !t.empty()) {
      auto unit = capture_of(caps, "unit");
      keep_value(s, "timeout_seen", t + unit + (capture_of(caps, "default").empty() ? "" : " (default)"));
    }
    if (auto t = capture_of(caps, "event_timeout"); !t.empty()) keep_value(s, "event_timeout_seen", t);
  } else if (cls == "collective/peer-lost") {
    keep_value(s, "peer", capture_of(caps, "peer"));
    keep_value(s, "exception", capture_of(caps, "exception"));
    note_lost_peer_host(s, capture_of(caps, "peer"), capture_of(caps, "discoverer"));
  } else if (cls == "collective/link-setup") {
    keep_value(s, "remote_rank", capture_of(caps, "remote_rank"));
    keep_value(s, "remote_ip", capture_of(caps, "remote_ip"));
    if (!capture_of(caps, "no_anomaly").empty()) keep_value(s, "connect_detect", "no-abnormal-period");
  } else if (cls == "collective/socket-close") {
    keep_value(s, "hdc_ret", capture_of(caps, "ret"));
  } else if (cls == "collective/rank-table") {
    keep_value(s, "config_device", capture_of(caps, "config_device"));
    keep_value(s, "local_device", capture_of(caps, "local_device"));
  } else if (cls == "collective/store-timeout") {
    store_captures(s, caps);
  }
}

// Matches the collective signatures against free text (an error report's lines).
class TextMatcher {
 public:
  TextMatcher(const KnowledgeBase& kb, const CollectiveClasses& classes) : kb_(kb), classes_(classes) {}
  void match(std::string_view text, const EvidenceRef& e, std::map<std::string, Seen>& seen) {
    if (!kb_.plog_matcher.any(text)) return;
    kb_.plog_matcher.match(text, {}, scratch_, hits_);
    for (int idx : hits_) {
      const Signature& sig = kb_.signatures[static_cast<size_t>(idx)];
      auto cls = classes_.of_signature(sig.id);
      if (cls.empty()) continue;
      auto caps = captures(sig, text);
      if (!capture_of(caps, kStatedValueCapture).empty() || !capture_of(caps, kArrivalKeyCapture).empty()) continue;
      Seen& s = seen[std::string(cls)];
      note(s, e, "report text:" + sig.id);
      keep_captures(s, cls, caps);
    }
  }

 private:
  static std::vector<std::pair<std::string, std::string>> captures(const Signature& sig, std::string_view t) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!sig.re || sig.re->NumberOfCapturingGroups() == 0) return out;
    int n = sig.re->NumberOfCapturingGroups();
    std::vector<re2::StringPiece> g(static_cast<size_t>(n) + 1);
    if (!sig.re->Match(re2::StringPiece(t.data(), t.size()), 0, t.size(), RE2::UNANCHORED, g.data(), n + 1))
      return out;
    for (const auto& [name, index] : sig.re->NamedCapturingGroups())
      if (g[static_cast<size_t>(index)].data() != nullptr)
        out.emplace_back(name, std::string(g[static_cast<size_t>(index)].data(), g[static_cast<size_t>(index)].size()));
    return out;
  }
  const KnowledgeBase& kb_;
  const CollectiveClasses& classes_;
  std::vector<int> scratch_, hits_;
};

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The collected rank tables against the host: a device without device_ip, and a table in which
// no device_ip is an address this host's devices have (hccn_tool -ip), when those were read.
void rank_table_checks(const BundleFacts& b, std::map<std::string, Seen>& seen) {
  std::set<std::string> host_ips;
  for (const auto& [id, p] : b.network.hccn)
    if (!p.ip.empty()) host_ips.insert(p.ip);
  for (const auto& t : b.network.rank_tables) {
    bool any_local = false;
    for (const auto& d : t.devices) {
      if (d.device_ip.empty()) {
        Seen& s = seen["collective/rank-table"];
        note(s, d.evidence, "rank table: device_ip not set");
        keep_value(s, "device_ip_missing", fmt::format("pid {} server {} device {}", t.pid, d.server_id, d.device_id));
      }
      any_local = any_local || host_ips.count(d.device_ip);
    }
    if (!host_ips.empty() && !t.devices.empty() && !any_local) {
      Seen& s = seen["collective/rank-table"];
      note(s, t.devices.front().evidence, "rank table: no device_ip of this host");
      std::string ips;
      for (const auto& ip : host_ips) ips += (ips.empty() ? "" : " ") + ip;
      keep_value(s, "host_device_ips", ips);
      keep_value(s, "rank_table_pid", std::to_string(t.pid));
    }
  }
}

// Which class a signature hit or a message code feeds: knowledge/collective-classes.tsv.
std::map<std::string, Seen> collect(const BundleFacts& b, const KnowledgeBase& kb, const CollectiveClasses& classes) {
  std::map<std::string, Seen> seen;
  for (const auto& h : b.logs.signature_hits) {
    auto cls = classes.of_signature(h.id);
    // A value to compare, or when a rank arrived: statements, compared below, not failures.
    if (cls.empty() || !capture_of(h, kStatedValueCapture).empty() || !capture_of(h, kArrivalKeyCapture).empty())
      continue;
    Seen& s = seen[std::string(cls)];
    note(s, h.evidence, "signature " + h.id);
    keep_captures(s, cls, h.captures);
  }
  for (const auto& c : b.logs.error_codes) {
    if (c.form != ErrorCodeForm::message_code) continue;
    auto cls = classes.of_code(c.code);
    if (!cls.empty()) note(seen[std::string(cls)], c.evidence, "code " + c.code);
  }
  TextMatcher text(kb, classes);
  for (const auto& r : b.python.error_reports) {
    const EvidenceRef& e = r.evidence_header.entry.empty() ? r.evidence : r.evidence_header;
    if (auto cls = classes.of_code(r.code); !cls.empty()) note(seen[std::string(cls)], e, "code " + r.code);
    text.match(r.message, e, seen);
    for (const auto& f : r.frames) text.match(f.text, e, seen);
  }
  // MindFormers' hccl_tools.py builds the rank table from each device's IP (hccn_tool):
  // a traceback out of it means the table could not be written.
  for (const auto& t : b.python.tracebacks) {
    if (!t.complete) continue;
    bool in_tool = std::any_of(t.frames.begin(), t.frames.end(),
                               [](const PyFrame& f) { return ends_with(f.file, "hccl_tools.py"); });
    if (!in_tool) continue;
    Seen& s = seen["collective/rank-table"];
    note(s, t.evidence_exception, "traceback in hccl_tools.py");
    keep_value(s, "rank_table_tool_error", t.exception_type + ": " + t.message);
  }
  rank_table_checks(b, seen);
  return seen;
}

// HCCL_* timeouts of the collected processes, "pid=value" each.
std::string configured(const BundleFacts& b, std::string_view name) {
  std::string out;
  for (const auto& [pid, p] : b.processes.by_pid)
    if (const auto* v = p.env(name)) out += fmt::format("{}pid {}: {}", out.empty() ? "" : ", ", pid, *v);
  return out;
}

// The newest of a port's link changes: hccn_tool -link_stat prints them newest first, so the
// first printed stands unless a record's time says otherwise (snapshots before and after repeat).
const HccnLinkChange* newest_link_change(const HccnPort& p) {
  const HccnLinkChange* newest = p.link_changes.empty() ? nullptr : &p.link_changes.front();
  int64_t newest_t = newest ? link_stat_seconds(newest->when) : -1;
  for (const auto& c : p.link_changes)
    if (int64_t t = link_stat_seconds(c.when); t > newest_t) newest = &c, newest_t = t;
  return newest;
}

// hccn_tool: a port down, a net_health other than Success, or a link that last went down.
void link_down(const BundleFacts& b, const FindingTexts& texts, bool collective_failed, std::vector<Finding>& out) {
  Finding f;
  std::string observed;
  for (const auto& [id, p] : b.network.hccn) {
    std::vector<std::string> what;
    if (!p.link_status.empty() && p.link_status != "UP") {
      what.push_back("link " + p.link_status);
      f.evidence.push_back(p.link_evidence);
    }
    if (!p.net_health.empty() && p.net_health != "Success") {
      what.push_back("net_health " + p.net_health);
      f.evidence.push_back(p.net_health_evidence);
    }
    if (const HccnLinkChange* last = newest_link_change(p); last && !last->up) {
      what.push_back("last link change LINK DOWN at " + last->when);
      f.evidence.push_back(last->evidence);
    }
    if (what.empty()) continue;
    std::string joined;
    for (const auto& w : what) joined += (joined.empty() ? "" : ", ") + w;
    observed += fmt::format("{}device {}: {}", observed.empty() ? "" : "; ", id, joined);
    f.value("device", std::to_string(id));
  }
  if (observed.empty()) return;
  f.id = "collective/link-down";
  f.host = b.host;
  // Alone a port down is a network state; next to a collective failure it is its likely cause.
  f.severity = collective_failed ? Severity::error : Severity::warning;
  f.confidence = Confidence::high;
  f.observed = "hccn_tool: " + observed + ".";
  render_finding_words(f, texts);
  out.push_back(std::move(f));
}

// py-spy: threads stopped inside a torch.distributed collective, innermost such frame.
void stacks_in_collective(const BundleFacts& b, const FindingTexts& texts, std::vector<Finding>& out) {
  static constexpr std::array<std::string_view, 9> kCalls = {
      "all_reduce (", "all_gather", "reduce_scatter", "broadcast (", "barrier (", "all_to_all",
      "send (", "recv (", "monitored_barrier ("};
  Finding f;
  for (const auto& t : b.network.stacks) {
    for (const auto& fr : t.frames) {
      bool hit = std::any_of(kCalls.begin(), kCalls.end(),
                             [&](std::string_view c) { return fr.find(c) != std::string::npos; }) &&
                 fr.find("distributed") != std::string::npos;
      if (!hit) continue;
      f.value("stack", fmt::format("pid {} thread {} ({}): {}", t.pid, t.thread, t.name, fr));
      if (f.evidence.size() < 8) f.evidence.push_back(t.evidence);
      break;
    }
  }
  if (f.evidence.empty()) return;
  f.id = "collective/stack-in-collective";
  f.host = b.host;
  f.severity = Severity::info;
  f.confidence = Confidence::high;
  f.observed = fmt::format("{} thread(s) in a torch.distributed collective at collection time.", f.evidence.size());
  for (const auto& [k, v] : f.values) f.observed += " " + v + ".";
  render_finding_words(f, texts);
  out.push_back(std::move(f));
}

}  // namespace

void analyze_collective(const AnalysisContext& ctx, std::vector<Finding>& out) {
  const EvidenceSet& evidence = ctx.evidence;
  const KnowledgeBase& kb = ctx.knowledge;
  bool any_failed = false;
  for (const auto& b : evidence.bundles) {
    auto seen = collect(b, kb, ctx.collective_classes);
    any_failed = any_failed || !seen.empty();
    link_down(b, ctx.finding_texts, !seen.empty(), out);
    port_health(b, port_health_for(ctx.options.knowledge_dir), ctx.finding_texts, !seen.empty(), out);
    stacks_in_collective(b, ctx.finding_texts, out);
    for (const auto& [id, s] : seen) {
      const Class* c = class_of(id);
      if (!c) continue;
      Finding f;
      f.id = std::string(c->id);  // the full id, as the catalogue test reads it from the table
      f.host = b.host;
      f.severity = c->severity;
      f.confidence = s.lines > 1 ? Confidence::high : Confidence::medium;
      std::string from;
      for (const auto& x : s.sources) from += (from.empty() ? "" : ", ") + x;
      f.observed = fmt::format("{} line(s) or report(s) ({}).", s.lines, from);
      for (const auto& [k, v] : s.values) f.observed += fmt::format(" {}={}.", k, v);
      if (id == "collective/wait-timeout" || id == "collective/link-setup") {
        auto exec = configured(b, "HCCL_EXEC_TIMEOUT");
        auto conn = configured(b, "HCCL_CONNECT_TIMEOUT");
        bool have_env = std::any_of(b.processes.by_pid.begin(), b.processes.by_pid.end(),
                                    [](const auto& p) { return p.second.has_environ; });
        f.observed += have_env ? fmt::format(" HCCL_EXEC_TIMEOUT: {}; HCCL_CONNECT_TIMEOUT: {}.",
                                             exec.empty() ? "unset (default)" : exec,
                                             conn.empty() ? "unset (default)" : conn)
                               : " The process environment was not collected: the configured "
                                 "HCCL_EXEC_TIMEOUT / HCCL_CONNECT_TIMEOUT are unknown.";
        if (!exec.empty()) f.value("hccl_exec_timeout", exec);
        if (!conn.empty()) f.value("hccl_connect_timeout", conn);
      }
      f.evidence = s.evidence;
      f.value("lines", std::to_string(s.lines));
      // Issue 36: a class read from message codes alone (EI0006 "getting socket times out",
      // EI0002) is one rank's wait that expired; a line that names the failed set-up call,
      // the link or the stuck task is the fault's own evidence (docs/verdict.md).
      bool code_only = std::all_of(s.sources.begin(), s.sources.end(),
                                   [](const std::string& x) { return x.starts_with("code "); });
      f.value("seen_as", code_only ? "code-only" : "lines");
      for (const auto& [k, v] : s.values) f.value(k, v);
      std::string_view variant;
      if (id == "collective/wait-timeout") {
        auto barrier = collective_wait_in_barrier(b);
        f.value("observed_in_barrier", barrier ? "yes" : "no");
        if (barrier) {
          f.evidence.push_back(*barrier);
          f.observed += " The timeout surfaced in torch.distributed's barrier, which moves no data: "
                        "a rank reached it late.";
          variant = "barrier";  // its next checks start with the rank the barrier waited for
        }
      }
      render_finding_words(f, ctx.finding_texts, {}, variant);
      out.push_back(std::move(f));
    }
  }
  compared_values(evidence, ctx.collective_classes, ctx.finding_texts, any_failed, out);
  late_arrival(evidence, ctx.collective_classes, slow_limits_for(ctx.options.knowledge_dir), ctx.finding_texts, out);
}

}  // namespace triage
