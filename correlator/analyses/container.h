#pragma once
// container: whether the job runs in a container (docker, containerd, iSula, Kubernetes),
// from its cgroup and mountinfo; and whether the collector itself ran in one.
#include <string>
#include <string_view>
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/host_facts.h"

namespace triage {

// "docker", "containerd", "isula", "kubernetes" or "" from one cgroup path or mount field.
std::string_view container_runtime_of(std::string_view text);

void analyze_container(const AnalysisContext& ctx, std::vector<Finding>& out);

}  // namespace triage
