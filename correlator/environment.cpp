// Checks ASCEND_HOME_PATH, ASCEND_TOOLKIT_HOME, ASCEND_OPP_PATH, ASCEND_AICPU_PATH and each
// LD_LIBRARY_PATH / PYTHONPATH entry against paths.tsv as seen from the process. A path the
// collector did not check is unknown, not missing. (Variables disagreeing with the mapped CANN:
// library-provenance/foreign-cann.)
#include "correlator/environment.h"

#include <fmt/format.h>

namespace triage {
namespace {

const PathCheck* check_for(const LibraryFacts& lf, std::string_view path, int64_t pid) {
  std::string seen = "pid:" + std::to_string(pid);
  std::string_view p = path;
  while (p.size() > 1 && p.back() == '/') p.remove_suffix(1);
  for (const auto& c : lf.paths)
    if (c.seen_from == seen && c.path == p) return &c;
  return nullptr;
}

}  // namespace

void analyze_environment(const EvidenceSet& evidence, const AnalyzeOptions&, std::vector<Finding>& out) {
  for (const auto& b : evidence.bundles) {
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
      f.title = fmt::format("pid {}: {} names {} that does not exist in the process's view", pid,
                            missing.front().first, missing.front().second->path);
      std::string list;
      for (const auto& [var, c] : missing) list += fmt::format("{}{}: {}", list.empty() ? "" : "; ", var, c->path);
      f.observed = list;
      f.supports = "the environment was set for another install or the directory is hidden or "
                   "gone in this process's mount namespace";
      f.does_not_prove = "that the process failed because of it: libraries are found through "
                         "other entries too (see library-provenance for what is mapped)";
      f.next_checks = {fmt::format("nsenter -t {} -m ls -ld {}", pid, missing.front().second->path),
                       "source the set_env.sh of the CANN in use and restart the job"};
      for (const auto& [var, c] : missing) f.evidence.push_back(c->evidence);
      if (!proc.evidence.empty()) f.evidence.push_back(proc.evidence.front());
      f.value("pid", std::to_string(pid)).value("missing", std::to_string(missing.size()));
      out.push_back(std::move(f));
    }
  }
}

}  // namespace triage
