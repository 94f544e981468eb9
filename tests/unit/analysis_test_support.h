#pragma once
// Shared by analysis tests on in-memory facts: run one analysis over one bundle, find a
// finding by id.
#include <string_view>
#include <vector>

#include "model/host_facts.h"
#include "model/options.h"

namespace triage::testing {

using AnalysisFn = void (*)(const EvidenceSet&, const AnalyzeOptions&, std::vector<Finding>&);

inline std::vector<Finding> run_analysis(AnalysisFn fn, const BundleFacts& b) {
  EvidenceSet set;
  set.bundles.push_back(b);
  std::vector<Finding> out;
  fn(set, AnalyzeOptions{}, out);
  return out;
}

inline const Finding* find_finding(const std::vector<Finding>& v, std::string_view id) {
  for (const auto& f : v)
    if (f.id == id) return &f;
  return nullptr;
}

}  // namespace triage::testing
