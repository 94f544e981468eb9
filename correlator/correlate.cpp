#include "correlator/correlate.h"

#include "correlator/driver_binding.h"
#include "correlator/module_provenance.h"

namespace triage {

Report correlate(const EvidenceSet& evidence, const AnalyzeOptions& options) {
  Report report;
  for (const auto& bundle : evidence.bundles)
    for (const auto& f : bundle.input_findings) report.findings.push_back(f);
  // Each analysis appends its findings here (one function per analysis, in correlator/).
  analyze_module_provenance(evidence, options, report.findings);
  analyze_driver_binding(evidence, options, report.findings);
  sort_findings(report.findings);
  return report;
}

}  // namespace triage
