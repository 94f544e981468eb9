#include "correlator/correlate.h"

#include "correlator/atb_abi.h"
#include "correlator/visible_devices_late.h"
#include "correlator/collective.h"
#include "correlator/chip_scope.h"
#include "correlator/container.h"
#include "correlator/environment.h"
#include "correlator/finding_groups.h"
#include "correlator/library_provenance.h"
#include "correlator/mount_shadowing.h"
#include "correlator/task_queue_value.h"
#include "correlator/version_matrix.h"
#include "correlator/observation_point.h"
#include "correlator/stream_stall.h"
#include "correlator/device_access.h"
#include "correlator/device_exception.h"
#include "correlator/failure_class.h"
#include "correlator/kernel_driver_error.h"
#include "correlator/localization_mode.h"
#include "correlator/log_signature.h"
#include "correlator/unexplained_errors.h"
#include "correlator/probe_results.h"
#include "correlator/bundle_summary.h"
#include "correlator/driver_binding.h"
#include "correlator/module_provenance.h"
#include "correlator/timeline.h"
#include "correlator/verdict.h"

namespace triage {

Report correlate(const EvidenceSet& evidence, const AnalyzeOptions& options) {
  Report report;
  for (const auto& bundle : evidence.bundles) {
    report.bundles.push_back(summarize_bundle(bundle));
    for (const auto& f : bundle.input_findings) report.findings.push_back(f);
  }
  // Each analysis appends its findings here (one function per analysis, in correlator/).
  analyze_library_provenance(evidence, options, report.findings);
  analyze_environment(evidence, options, report.findings);
  analyze_atb_abi(evidence, options, report.findings);
  analyze_visible_devices_late(evidence, options, report.findings);
  analyze_mount_shadowing(evidence, options, report.findings);
  analyze_version_matrix(evidence, options, report.findings);
  analyze_task_queue_value(evidence, options, report.findings);
  analyze_container(evidence, options, report.findings);
  analyze_chip_scope(evidence, options, report.findings);
  analyze_stream_stall(evidence, options, report.findings);
  analyze_observation_point(evidence, options, report.findings);
  analyze_device_exception(evidence, options, report.findings);
  analyze_collective(evidence, options, report.findings);
  analyze_device_access(evidence, options, report.findings);
  analyze_failure_class(evidence, options, report.findings);
  analyze_kernel_driver_error(evidence, options, report.findings);
  analyze_localization_mode(evidence, options, report.findings);
  analyze_probe_results(evidence, options, report.findings);
  analyze_module_provenance(evidence, options, report.findings);
  analyze_driver_binding(evidence, options, report.findings);
  analyze_log_signature(evidence, options, report.findings);
  // Last: it reads every finding above to know which error lines they explain.
  analyze_unexplained_errors(evidence, options, report.findings);
  // After every analysis: it merges what they found per process into one finding per cause.
  group_findings_by_cause(options, report.findings);
  sort_findings(report.findings);
  // Both read the sorted findings: links and evidence refer to them by index.
  report.verdict = build_verdict(report.findings, evidence, options);
  report.timeline = build_timeline(report.findings, evidence, options);
  return report;
}

}  // namespace triage
