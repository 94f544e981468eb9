// TASK_QUEUE_ENABLE: torch_npu 5.0.x - 6.0.rc2 read it as a boolean (!= 0 -> on); from 6.0.rc3
// (2.1.0.post8 / 2.3.1.post2 / 2.4.0) it is a level 0, 1 or 2, and from 6.0.0 other values
// raise "TASK_QUEUE_ENABLE should be 0, 1 or 2".
#include "correlator/analyses/task_queue_value.h"

#include <fmt/format.h>

#include "model/pep440.h"

namespace triage {

std::optional<bool> task_queue_is_level(std::string_view torch_npu) {
  auto v = parse_pep440(torch_npu);
  if (!v) return std::nullopt;
  auto at_least = [&](std::string_view t) { return compare_pep440(*v, *parse_pep440(t)) >= 0; };
  if (at_least("2.4.0")) return true;
  auto line = [&](std::string_view base) {
    auto b = parse_pep440(base);
    return v->release.size() >= 3 && b->release == std::vector<int64_t>(v->release.begin(), v->release.begin() + 3);
  };
  if (line("2.3.1")) return at_least("2.3.1.post2");
  if (line("2.1.0")) return at_least("2.1.0.post8");
  return false;  // 1.x, 2.0.1, 2.2.0 lines ended before 6.0.rc3
}

void analyze_task_queue_value(const AnalysisContext& ctx, std::vector<Finding>& out) {
  for (const auto& b : ctx.evidence.bundles) {
    for (const auto& [pid, proc] : b.processes.by_pid) {
      const std::string* value = proc.env("TASK_QUEUE_ENABLE");
      if (!value) continue;
      // The torch_npu this process uses: its packages.tsv, else its version.py.
      std::string version;
      auto lib = b.libraries.by_pid.find(pid);
      if (lib != b.libraries.by_pid.end()) {
        for (const auto& r : lib->second.packages)
          if (r.normalized == "torch-npu") version = r.version;
        if (version.empty()) version = lib->second.torch_npu_version;
      }
      if (version.empty()) continue;
      auto level = task_queue_is_level(version);
      if (!level) continue;
      bool valid_level = *value == "0" || *value == "1" || *value == "2";
      Finding f;
      f.id = "localization-mode/task-queue-value";
      f.host = b.host;
      f.confidence = Confidence::medium;
      if (*level && !valid_level) {
        f.severity = Severity::warning;
        f.observed = fmt::format("TASK_QUEUE_ENABLE='{}'; torch_npu {} accepts only 0, 1 or 2",
                                 *value, version);
      } else if (!*level && *value != "0" && *value != "1") {
        f.severity = Severity::info;
        f.observed = fmt::format("TASK_QUEUE_ENABLE='{}'; torch_npu {} predates the levels "
                                 "(2.1.0.post8 / 2.3.1.post2 / 2.4.0)", *value, version);
      } else {
        continue;
      }
      render_finding_words(f, ctx.finding_texts,
                           {{"pid", std::to_string(pid)}, {"value", *value}, {"torch_npu", version}},
                           f.severity == Severity::warning ? "rejected" : "");
      if (!proc.evidence.empty()) f.evidence.push_back(proc.evidence.front());
      if (lib != b.libraries.by_pid.end() && !lib->second.packages.empty())
        for (const auto& r : lib->second.packages)
          if (r.normalized == "torch-npu") f.evidence.push_back(r.evidence);
      f.value("pid", std::to_string(pid)).value("value", *value).value("torch_npu", version);
      out.push_back(std::move(f));
    }
  }
}

}  // namespace triage
