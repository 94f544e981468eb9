#pragma once
// driver-binding: NPU PCI functions without a bound driver, missing device nodes, and
// host driver load failures in the kernel log (docs/findings/modules.md).
#include <string_view>
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

void analyze_driver_binding(const AnalysisContext& ctx, std::vector<Finding>& findings);

struct KnowledgeBase;
// "910B" for 19e5:d802 ...; "" for a Huawei device that is not an NPU (Kunpeng on-board
// bridges, NICs, SAS, the iBMC VGA). The ids are data: knowledge/pci-ids.tsv.
std::string_view npu_model(std::string_view vendor, std::string_view device, const KnowledgeBase& kb);
std::string_view npu_model(std::string_view vendor, std::string_view device);  // built-in knowledge

}  // namespace triage
