#pragma once
// Shared by analysis tests on in-memory facts: run one analysis over one bundle, find a
// finding by id.
#include <string_view>
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/host_facts.h"
#include "model/options.h"

namespace triage::testing {

// The context an analysis gets in a run with default options and the built-in knowledge.
inline AnalysisContext context_for(const EvidenceSet& set) {
  static const AnalyzeOptions kDefaults{};
  return AnalysisContext::load(set, kDefaults);
}

inline std::vector<Finding> run_analysis(AnalysisFn fn, const BundleFacts& b) {
  EvidenceSet set;
  set.bundles.push_back(b);
  std::vector<Finding> out;
  fn(context_for(set), out);
  return out;
}

inline const Finding* find_finding(const std::vector<Finding>& v, std::string_view id) {
  for (const auto& f : v)
    if (f.id == id) return &f;
  return nullptr;
}

// The value of a finding's `key`, "" when it has none.
inline std::string finding_value(const Finding& f, std::string_view key) {
  for (const auto& [k, v] : f.values)
    if (k == key) return v;
  return {};
}

}  // namespace triage::testing
