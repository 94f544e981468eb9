#include "correlator/correlate.h"

#include "correlator/device_exception.h"
#include "correlator/kernel_driver_error.h"
#include "correlator/localization_mode.h"
#include "correlator/probe_results.h"

namespace triage {

Report correlate(const EvidenceSet& evidence, const AnalyzeOptions& options) {
  Report report;
  for (const auto& bundle : evidence.bundles)
    for (const auto& f : bundle.input_findings) report.findings.push_back(f);
  // Each analysis appends its findings here (one function per analysis, in correlator/).
  analyze_device_exception(evidence, options, report.findings);
  analyze_kernel_driver_error(evidence, options, report.findings);
  analyze_localization_mode(evidence, options, report.findings);
  analyze_probe_results(evidence, options, report.findings);
  sort_findings(report.findings);
  return report;
}

}  // namespace triage
