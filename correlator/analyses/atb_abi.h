#pragma once
// atb-abi: the C++ ABI tree ATB_HOME_PATH names (nnal/atb/.../cxx_abi_0 or cxx_abi_1) against
// the ABI torch's version is published with (knowledge/versions/torch_abi.tsv). ATB's
// set_env.sh picks the tree from the torch it finds; sourced before torch was installed it
// picks cxx_abi_1, and the ATB libraries then fail to load with undefined symbols.
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/host_facts.h"

namespace triage {

void analyze_atb_abi(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
