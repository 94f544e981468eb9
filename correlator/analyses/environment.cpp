// Checks ASCEND_HOME_PATH, ASCEND_TOOLKIT_HOME, ASCEND_OPP_PATH, ASCEND_AICPU_PATH and each
// LD_LIBRARY_PATH / PYTHONPATH entry against paths.tsv as seen from the process. A path the
// collector did not check is unknown, not missing. (Variables disagreeing with the mapped CANN:
// library-provenance/foreign-cann.) Differences from env/collector-env are info only.
#include "correlator/analyses/environment.h"

#include <fmt/format.h>

#include <map>
#include <tuple>

namespace triage {
namespace {

// Whether the process sees the host's mounts: its mountinfo and the host's have the same
// root mount (root, source, type) and the same number of mounts. Unknown (false) without both.
bool shares_host_mounts(const LibraryFacts& lf, int64_t pid) {
  auto it = lf.by_pid.find(pid);
  if (it == lf.by_pid.end() || !it->second.mounts.present || !lf.host_mounts.present) return false;
  const auto& mine = it->second.mounts.entries;
  const auto& host = lf.host_mounts.entries;
  if (mine.size() != host.size()) return false;
  auto root = [](const std::vector<MountEntry>& v) -> const MountEntry* {
    for (const auto& m : v)
      if (m.mount_point == "/") return &m;
    return nullptr;
  };
  const MountEntry *a = root(mine), *b = root(host);
  return a && b && a->root == b->root && a->source == b->source && a->fstype == b->fstype;
}

// The process's own row of paths.tsv; else the host's row when the process shares the host's
// mounts (the collector checks each path once, from the host, for such processes).
const PathCheck* check_for(const LibraryFacts& lf, std::string_view path, int64_t pid) {
  std::string seen = "pid:" + std::to_string(pid);
  std::string_view p = path;
  while (p.size() > 1 && p.back() == '/') p.remove_suffix(1);
  for (const auto& c : lf.paths)
    if (c.seen_from == seen && c.path == p) return &c;
  if (!shares_host_mounts(lf, pid)) return nullptr;
  for (const auto& c : lf.paths)
    if (c.seen_from == "host" && c.path == p) return &c;
  return nullptr;
}

// Variables worth comparing with the collector's shell: the filter the collector applies.
bool compared(std::string_view name) {
  return name.starts_with("ASCEND_") || name.starts_with("HCCL_") || name == "LD_LIBRARY_PATH" ||
         name == "PYTHONPATH" || name == "TASK_QUEUE_ENABLE";
}

// environment/collector-env-differs: the processes' Ascend variables against env/collector-env.
// Info only, never more: the collector ran in the user's (often sudo) shell, not the job's.
// Processes with the same differences share one finding.
struct EnvDiff {
  std::vector<std::string> only_process, only_collector, differ;
  auto key() const { return std::tie(differ, only_process, only_collector); }
  bool operator<(const EnvDiff& o) const { return key() < o.key(); }
  bool empty() const { return only_process.empty() && only_collector.empty() && differ.empty(); }
};

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

void collector_env_differs(const FindingTexts& texts, const BundleFacts& b, std::vector<Finding>& out) {
  const LibraryFacts& lf = b.libraries;
  if (!lf.has_collector_env) return;
  struct Group {
    std::vector<int64_t> pids;
    std::vector<EvidenceRef> evidence;
  };
  std::map<EnvDiff, Group> groups;
  for (const auto& [pid, proc] : b.processes.by_pid) {
    if (!proc.has_environ) continue;
    EnvDiff d;
    std::vector<EvidenceRef> evidence;
    for (const auto& [k, v] : proc.environ) {
      if (!compared(k)) continue;
      const KeyValueLine* c = nullptr;
      for (const auto& l : lf.collector_env)
        if (l.key == k) c = &l;
      if (!c) {
        d.only_process.push_back(k);
      } else if (c->value != v) {
        d.differ.push_back(k);
        if (evidence.size() < 6) evidence.push_back(c->evidence);
      }
    }
    for (const auto& l : lf.collector_env)
      if (compared(l.key) && !proc.env(l.key)) {
        d.only_collector.push_back(l.key);
        if (evidence.size() < 6) evidence.push_back(l.evidence);
      }
    if (d.empty()) continue;
    Group& g = groups[d];
    g.pids.push_back(pid);
    if (g.evidence.empty()) {
      if (!proc.evidence.empty()) g.evidence.push_back(proc.evidence.front());
      g.evidence.insert(g.evidence.end(), evidence.begin(), evidence.end());
      if (g.evidence.empty() && !lf.collector_env.empty()) g.evidence.push_back(lf.collector_env.front().evidence);
    }
  }
  for (const auto& [d, g] : groups) {
    std::string pids;
    for (int64_t p : g.pids) pids += (pids.empty() ? "" : " ") + std::to_string(p);
    Finding f;
    f.id = "environment/collector-env-differs";
    f.severity = Severity::info;
    f.confidence = Confidence::high;
    f.host = b.host;
    std::string sudo = b.manifest.sudo_user.empty() ? "" : fmt::format(" (via sudo from {})", b.manifest.sudo_user);
    f.observed = fmt::format("different values: {}; only in the process: {}; only in the collector's shell{}: {}",
                             d.differ.empty() ? "none" : join(d.differ),
                             d.only_process.empty() ? "none" : join(d.only_process), sudo,
                             d.only_collector.empty() ? "none" : join(d.only_collector));
    size_t count = d.only_process.size() + d.only_collector.size() + d.differ.size();
    render_finding_words(f, texts,
                         {{"pids", pids}, {"count", std::to_string(count)}, {"pid", std::to_string(g.pids.front())}});
    f.evidence = g.evidence;
    f.value("pids", pids).value("differ", join(d.differ)).value("only_process", join(d.only_process))
        .value("only_collector", join(d.only_collector));
    out.push_back(std::move(f));
  }
}

}  // namespace

void analyze_environment(const AnalysisContext& ctx, std::vector<Finding>& out) {
  const EvidenceSet& evidence = ctx.evidence;
  for (const auto& b : evidence.bundles) {
    collector_env_differs(ctx.finding_texts, b, out);
    for (const auto& [pid, proc] : b.processes.by_pid) {
      std::vector<std::pair<std::string, const PathCheck*>> missing;
      for (std::string_view var : {"ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_OPP_PATH",
                                   "ASCEND_AICPU_PATH", "LD_LIBRARY_PATH", "PYTHONPATH"}) {
        const std::string* v = proc.env(var);
        if (!v) continue;
        std::string_view rest = *v;
        while (true) {
          size_t colon = rest.find(':');
          std::string_view entry = rest.substr(0, colon);
          if (!entry.empty())
            if (const PathCheck* c = check_for(b.libraries, entry, pid); c && c->exists == false)
              missing.emplace_back(std::string(var), c);
          if (colon == std::string_view::npos) break;
          rest.remove_prefix(colon + 1);
        }
      }
      if (missing.empty()) continue;
      Finding f;
      f.id = "environment/missing-path";
      f.severity = Severity::warning;
      f.confidence = Confidence::high;
      f.host = b.host;
      std::string list;
      for (const auto& [var, c] : missing) list += fmt::format("{}{}: {}", list.empty() ? "" : "; ", var, c->path);
      f.observed = list;
      render_finding_words(f, ctx.finding_texts,
                           {{"pid", std::to_string(pid)}, {"variable", missing.front().first},
                            {"path", missing.front().second->path}});
      for (const auto& [var, c] : missing) f.evidence.push_back(c->evidence);
      if (!proc.evidence.empty()) f.evidence.push_back(proc.evidence.front());
      f.value("pid", std::to_string(pid)).value("missing", std::to_string(missing.size()));
      out.push_back(std::move(f));
    }
  }
}

}  // namespace triage
