// Container detection. cgroup paths name the runtime ("/kubepods/...", "/docker/<id>",
// "docker-<id>.scope", "cri-containerd-<id>.scope", "/isulad/<id>"); mountinfo roots and
// sources do too ("/var/lib/docker/...", "/var/lib/isulad/...", "/run/containerd/...",
// "/var/lib/kubelet/pods/..."). Kubernetes wins over its runtime.
#include "correlator/analyses/container.h"

#include <fmt/format.h>

namespace triage {
namespace {
bool has(std::string_view s, std::string_view w) { return s.find(w) != std::string_view::npos; }
}  // namespace

std::string_view container_runtime_of(std::string_view t) {
  if (has(t, "kubepods") || has(t, "/kubelet/pods/")) return "kubernetes";
  if (has(t, "isulad") || has(t, "/isula/")) return "isula";
  if (has(t, "containerd")) return "containerd";
  if (has(t, "/docker/") || has(t, "docker-") || has(t, "/var/lib/docker")) return "docker";
  return "";
}

void analyze_container(const AnalysisContext& ctx, std::vector<Finding>& out) {
  for (const auto& b : ctx.evidence.bundles) {
    for (const auto& [pid, p] : b.libraries.by_pid) {
      std::string_view runtime;
      EvidenceRef ev;
      for (const auto& c : p.cgroup_paths)
        if (auto r = container_runtime_of(c); !r.empty() && (runtime.empty() || r == "kubernetes")) {
          runtime = r;
          ev = p.cgroup_evidence;
        }
      for (const auto& m : p.mounts.entries) {
        if (!runtime.empty()) break;
        for (std::string_view field : {std::string_view(m.root), std::string_view(m.source)})
          if (auto r = container_runtime_of(field); !r.empty()) {
            runtime = r;
            ev = m.evidence;
          }
      }
      if (runtime.empty()) continue;
      Finding f;
      f.id = "container/process";
      f.severity = Severity::info;
      f.confidence = Confidence::medium;
      f.host = b.host;
      f.observed = fmt::format("its cgroup or mounts name {}", runtime);
      render_finding_words(f, ctx.finding_texts, {{"pid", std::to_string(pid)}, {"runtime", std::string(runtime)}});
      f.evidence.push_back(ev);
      f.value("pid", std::to_string(pid)).value("runtime", std::string(runtime));
      out.push_back(std::move(f));
    }
    if (b.manifest.in_container && *b.manifest.in_container) {
      Finding f;
      f.id = "container/collector-in-container";
      f.severity = Severity::warning;
      f.confidence = Confidence::high;
      f.host = b.host;
      f.observed = "manifest.json in_container: true";
      render_finding_words(f, ctx.finding_texts);
      f.evidence.push_back(b.manifest.evidence);
      f.value("in_container", "true");
      out.push_back(std::move(f));
    }
  }
}

}  // namespace triage
