#include "model/finding.h"

#include <algorithm>
#include <tuple>

namespace triage {

void sort_findings(std::vector<Finding>& findings) {
  auto key = [](const Finding& f) {
    static const EvidenceRef none{};
    const EvidenceRef& e = f.evidence.empty() ? none : f.evidence.front();
    return std::tie(f.host, f.id, e.entry, e.line, f.title);
  };
  std::stable_sort(findings.begin(), findings.end(), [&](const Finding& a, const Finding& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    return key(a) < key(b);
  });
}

}  // namespace triage
