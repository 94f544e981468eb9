#include "model/host_facts.h"

namespace triage {

std::vector<HostGroup> EvidenceSet::groups() const {
  std::vector<HostGroup> out;
  for (const auto& b : bundles) {
    HostGroup* g = nullptr;
    if (!b.host.empty())
      for (auto& existing : out)
        if (existing.host == b.host) g = &existing;
    if (!g) g = &out.emplace_back(HostGroup{b.host, {}});
    g->bundles.push_back(&b);
  }
  return out;
}

}  // namespace triage
