#pragma once
// module-provenance: which Ascend module files are resident, which load next boot, and
// whether one kernel carries more than one module set (docs/findings/modules.md).
#include <string>
#include <string_view>
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

void analyze_module_provenance(const AnalysisContext& ctx, std::vector<Finding>& findings);

// The bundle of a host group whose module and PCI state is newest (latest collection time,
// else the last given): before/after-reboot bundles of one host give one result.
const BundleFacts* latest_module_bundle(const HostGroup& group);

// The module set a path belongs to: its directory below /lib/modules/<kver>/
// ("updates", "updates/dkms", "extra", "weak-updates", "kernel/drivers/..."); a path
// outside /lib/modules/<kver>/ gives its own directory.
std::string module_set_of(std::string_view kver, std::string_view path);

}  // namespace triage
