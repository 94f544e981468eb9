// A bind mount over /usr/local/Ascend itself or over a CANN directory (cann, cann-<v>,
// ascend-toolkit, nnae, nnal) hides what lies beneath. When the process still maps a CANN,
// this is a configuration fault to fix, not the cause of a device timeout.
#include "correlator/analyses/mount_shadowing.h"

#include <fmt/format.h>

#include "correlator/analyses/library_provenance.h"

namespace triage {

bool is_cann_mount_point(std::string_view mp) {
  constexpr std::string_view kRoot = "/usr/local/Ascend";
  if (mp == kRoot || mp == "/usr/local/Ascend/") return true;
  if (!mp.starts_with("/usr/local/Ascend/")) return false;
  std::string_view rest = mp.substr(kRoot.size() + 1);
  std::string_view first = rest.substr(0, rest.find('/'));
  return first == "cann" || first.starts_with("cann-") || first == "ascend-toolkit" ||
         first == "nnae" || first == "nnal";
}

void analyze_mount_shadowing(const AnalysisContext& ctx, std::vector<Finding>& out) {
  for (const auto& b : ctx.evidence.bundles) {
    auto report = [&](const MountEntry& m, const ProcessLibraries* p) {
      bool maps_cann = p && !mapped_canns(*p, b.libraries).empty();
      Finding f;
      f.id = "mount-shadowing";
      f.severity = Severity::warning;
      f.confidence = Confidence::medium;
      f.host = b.host;
      f.observed = fmt::format("mount point {} from {} (root {}){}", m.mount_point, m.source, m.root,
                               maps_cann ? "; the process still maps a CANN" : "");
      render_finding_words(f, ctx.finding_texts,
                           {{"mount_point", m.mount_point},
                            {"fstype", m.fstype},
                            {"source", m.source},
                            {"in_pid", p ? fmt::format(" in pid {}", p->pid) : ""}},
                           maps_cann ? "maps-cann" : "");
      f.evidence.push_back(m.evidence);
      f.value("mount_point", m.mount_point).value("source", m.source)
          .value("pid", p ? std::to_string(p->pid) : "host");
      out.push_back(std::move(f));
    };
    for (const auto& m : b.libraries.host_mounts.entries)
      if (is_cann_mount_point(m.mount_point)) report(m, nullptr);
    for (const auto& [pid, p] : b.libraries.by_pid)
      for (const auto& m : p.mounts.entries)
        if (is_cann_mount_point(m.mount_point)) report(m, &p);
  }
}

}  // namespace triage
