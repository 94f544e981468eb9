#include "model/report.h"

namespace triage {

Severity Report::max_severity() const {
  Severity m = Severity::info;
  for (const auto& f : findings)
    if (f.severity > m) m = f.severity;
  return m;
}

bool Report::has_warning_or_above() const {
  for (const auto& f : findings)
    if (f.severity >= Severity::warning) return true;
  return false;
}

}  // namespace triage
