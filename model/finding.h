#pragma once
// A finding: what an analysis concluded, with the evidence and its limits.
#include <string>
#include <utility>
#include <vector>

#include "model/evidence.h"
#include "model/severity.h"

namespace triage {

struct Finding {
  std::string id;              // "<analysis>" or "<analysis>/<kind>", listed in docs/findings.md
  Severity severity = Severity::info;
  Confidence confidence = Confidence::low;
  std::string host;            // host group the finding belongs to ("" = input level)
  std::string title;           // one line
  std::string observed;        // what the bundle shows
  std::string supports;        // what that supports
  std::string does_not_prove;  // the limits: never empty for a finding at warning or above
  std::vector<std::string> next_checks;  // each may hold an exact command
  std::vector<EvidenceRef> evidence;
  // Lines the finding accounts for beyond the ones it cites (repeats, the rest of a group):
  // with `evidence` they are the lines it explains (docs/architecture.md, "explained lines").
  // Only entry and line are read; the excerpt may be empty.
  std::vector<EvidenceRef> explains;
  // Error lines of the same failure printed by another layer (the same error code, or the same
  // process in the same second) that the finding accounts for without citing them: shown so
  // the report says what it read, not counted as evidence by the verdict.
  std::vector<EvidenceRef> same_failure;
  static constexpr size_t kMaxSameFailure = 4;  // lines kept per finding, one per error group
  // Key values for machine consumers and tests (stream id, frozen head, ...), in order.
  std::vector<std::pair<std::string, std::string>> values;

  Finding& value(std::string key, std::string v) {
    values.emplace_back(std::move(key), std::move(v));
    return *this;
  }
  const std::string* find_value(std::string_view key) const {
    for (const auto& [k, v] : values)
      if (k == key) return &v;
    return nullptr;
  }
};

// Stable order for reports: severity descending, then id, then first evidence.
void sort_findings(std::vector<Finding>& findings);

}  // namespace triage
