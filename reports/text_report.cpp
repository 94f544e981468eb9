#include <fmt/format.h>

#include "reports/render.h"

namespace triage {

void render_text(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                 std::ostream& out) {
  for (const auto& b : evidence.bundles) {
    uint64_t unknown = 0;
    for (const auto& e : b.inventory.entries) unknown += e.kind == SourceKind::unknown;
    out << fmt::format("Input {}: host {}, {} entries ({} not recognised)\n", b.input,
                       b.host.empty() ? "unknown" : b.host, b.inventory.entries.size(), unknown);
  }
  out << fmt::format("\n{} finding(s)\n", report.findings.size());
  for (const auto& f : report.findings) {
    out << fmt::format("\n[{}] {} ({} confidence)\n  {}\n", to_string(f.severity), f.id,
                       to_string(f.confidence), f.title);
    if (!f.observed.empty()) out << "  Observed: " << f.observed << '\n';
    if (!f.does_not_prove.empty()) out << "  Does not prove: " << f.does_not_prove << '\n';
    for (const auto& e : f.evidence)
      out << fmt::format("    {}:{}: {}\n", e.entry, e.line, e.excerpt);
  }
}

}  // namespace triage
