#include "correlator/analyses/visible_devices_late.h"

#include <fmt/format.h>

#include <map>

namespace triage {
namespace {

bool is_assignment(const JobEvent& e) { return e.call != "import" && e.call != "use"; }

void raise(const BundleFacts& b, const FindingTexts& texts, const JobEvent& set, const JobEvent& npu,
           bool npu_before, std::vector<Finding>& out) {
  Finding f;
  f.id = "environment/visible-devices-set-late";
  f.severity = Severity::warning;
  f.confidence = Confidence::medium;
  f.host = b.host;
  f.observed =
      npu_before
          ? fmt::format("line {} {} torch_npu; line {} sets {} after it", npu.evidence.line,
                        npu.call == "import" ? "imports" : "uses", set.evidence.line, set.call)
          : fmt::format("line {} sets {}; line {} then uses torch_npu without importing it, so it "
                        "was imported before the assignment",
                        set.evidence.line, set.call, npu.evidence.line);
  render_finding_words(f, texts, {{"variable", set.call}});
  const JobEvent& first = npu_before ? npu : set;
  const JobEvent& second = npu_before ? set : npu;
  f.evidence.push_back(first.evidence);
  f.evidence.push_back(second.evidence);
  f.value("variable", set.call).value("order", npu_before ? "import-then-set" : "set-then-use-without-import");
  out.push_back(std::move(f));
}

}  // namespace

void analyze_visible_devices_late(const AnalysisContext& ctx, std::vector<Finding>& out) {
  for (const auto& b : ctx.evidence.bundles) {
    // Per output stream, in line order: the first torch_npu line seen, and an assignment
    // waiting for the next torch_npu line to say whether the import came before it.
    std::map<size_t, const JobEvent*> npu_seen, pending;
    for (const auto& e : b.python.job_events) {
      if (e.kind != JobEventKind::repl_input) continue;
      if (is_assignment(e)) {
        if (auto it = npu_seen.find(e.stream); it != npu_seen.end()) raise(b, ctx.finding_texts, e, *it->second, true, out);
        else pending[e.stream] = &e;
        continue;
      }
      if (auto it = pending.find(e.stream); it != pending.end()) {
        if (e.call == "use") raise(b, ctx.finding_texts, *it->second, e, false, out);  // else imported after: in order
        pending.erase(it);
      }
      npu_seen.emplace(e.stream, &e);  // the first one stays
    }
  }
}

}  // namespace triage
