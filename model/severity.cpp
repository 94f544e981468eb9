#include "model/severity.h"

namespace triage {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
    case Severity::critical: return "critical";
  }
  return "info";
}

std::string_view to_string(Confidence c) {
  switch (c) {
    case Confidence::low: return "low";
    case Confidence::medium: return "medium";
    case Confidence::high: return "high";
  }
  return "low";
}

std::optional<Severity> parse_severity(std::string_view s) {
  for (auto v : {Severity::info, Severity::warning, Severity::error, Severity::critical})
    if (to_string(v) == s) return v;
  return std::nullopt;
}

std::optional<Confidence> parse_confidence(std::string_view s) {
  for (auto v : {Confidence::low, Confidence::medium, Confidence::high})
    if (to_string(v) == s) return v;
  return std::nullopt;
}

}  // namespace triage
