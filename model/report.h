#pragma once
// The result of analysis that renderers turn into text, JSON and the other formats.
#include <string>
#include <vector>

#include "model/finding.h"

namespace triage {

struct Report {
  std::vector<Finding> findings;  // sorted with sort_findings()

  Severity max_severity() const;
  bool has_warning_or_above() const;
};

}  // namespace triage
