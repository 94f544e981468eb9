// The analyses, in the order they run: a new analysis is its file and one row here.
// Findings are sorted once all have run; findings equal in the sort keys keep this order.
// Unexplained errors, grouping, verdict and timeline run after every row
// (correlator/correlate.cpp, correlator/passes/).
#include "correlator/analyses/analysis.h"
#include "correlator/analyses/atb_abi.h"
#include "correlator/analyses/chip_scope.h"
#include "correlator/analyses/collective.h"
#include "correlator/analyses/collective_wait_root.h"
#include "correlator/analyses/container.h"
#include "correlator/analyses/device_access.h"
#include "correlator/analyses/device_exception.h"
#include "correlator/analyses/driver_binding.h"
#include "correlator/analyses/environment.h"
#include "correlator/analyses/failure_class.h"
#include "correlator/analyses/kernel_driver_error.h"
#include "correlator/analyses/library_provenance.h"
#include "correlator/analyses/localization_mode.h"
#include "correlator/analyses/log_signature.h"
#include "correlator/analyses/module_provenance.h"
#include "correlator/analyses/mount_shadowing.h"
#include "correlator/analyses/observation_point.h"
#include "correlator/analyses/probe_results.h"
#include "correlator/analyses/slow_rank.h"
#include "correlator/analyses/stream_stall.h"
#include "correlator/analyses/task_queue_value.h"
#include "correlator/analyses/version_matrix.h"
#include "correlator/analyses/visible_devices_late.h"

namespace triage {

AnalysisContext AnalysisContext::load(const EvidenceSet& evidence, const AnalyzeOptions& options) {
  const std::string& dir = options.knowledge_dir;
  return {evidence,
          options,
          knowledge_for(dir),
          failure_classes_for(dir),
          version_tables_for(dir),
          finding_texts_for(dir),
          collective_classes_for(dir)};
}

std::span<const AnalysisRow> analyses() {
  static constexpr AnalysisRow kAnalyses[] = {
      {"library_provenance", analyze_library_provenance},
      {"environment", analyze_environment},
      {"atb_abi", analyze_atb_abi},
      {"visible_devices_late", analyze_visible_devices_late},
      {"mount_shadowing", analyze_mount_shadowing},
      {"version_matrix", analyze_version_matrix},
      {"task_queue_value", analyze_task_queue_value},
      {"container", analyze_container},
      {"chip_scope", analyze_chip_scope},
      {"stream_stall", analyze_stream_stall},
      {"observation_point", analyze_observation_point},
      {"device_exception", analyze_device_exception},
      {"collective", analyze_collective},
      {"collective_wait_root", analyze_collective_wait_root},
      {"device_access", analyze_device_access},
      {"failure_class", analyze_failure_class},
      {"kernel_driver_error", analyze_kernel_driver_error},
      {"localization_mode", analyze_localization_mode},
      {"probe_results", analyze_probe_results},
      {"slow_rank", analyze_slow_rank},
      {"module_provenance", analyze_module_provenance},
      {"driver_binding", analyze_driver_binding},
      {"log_signature", analyze_log_signature},
  };
  return kAnalyses;
}

}  // namespace triage
