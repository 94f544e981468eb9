#pragma once
// localization-mode/task-queue-value: a TASK_QUEUE_ENABLE value the torch_npu in use rejects
// or reads differently than the user meant (ascend-facts section 7).
#include <optional>
#include <string_view>
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/host_facts.h"

namespace triage {

// True when the torch_npu version reads TASK_QUEUE_ENABLE as a level 0/1/2 (6.0.rc3 on:
// 2.1.0.post8, 2.3.1.post2, 2.4.0 and later); false when it reads it as on/off; nullopt when
// the version is not PEP 440.
std::optional<bool> task_queue_is_level(std::string_view torch_npu);

void analyze_task_queue_value(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
