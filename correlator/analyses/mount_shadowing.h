#pragma once
// mount-shadowing: a mount over a CANN path (an empty host directory bound over the image's
// toolkit), in a process's or the host's mountinfo.
#include <string_view>
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/host_facts.h"

namespace triage {

// True for mount points that hold CANN user space (not the driver, firmware or dcmi, which
// containers are expected to bind from the host).
bool is_cann_mount_point(std::string_view mount_point);

void analyze_mount_shadowing(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
