#include "reports/render.h"

namespace triage {

// Placeholder until the html renderer lands: the text report.
void render_html(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
           std::ostream& out) {
  render_text(report, evidence, opt, out);
}

}  // namespace triage
