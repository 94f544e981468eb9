#pragma once
// visible-devices-late: a pasted interactive session that sets ASCEND_RT_VISIBLE_DEVICES (or
// ASCEND_VISIBLE_DEVICES) after torch_npu was imported. The runtime reads the variable when
// torch_npu initialises, so a later assignment is not seen and device indices still count
// every device: `_npu_setDevice(0)` then opens a device the user meant to hide, or fails.
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/host_facts.h"

namespace triage {

void analyze_visible_devices_late(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
