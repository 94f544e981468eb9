#pragma once
// Severity and confidence scales; the written criteria are in docs/findings.md.
#include <optional>
#include <string_view>

namespace triage {

enum class Severity { info = 0, warning = 1, error = 2, critical = 3 };
enum class Confidence { low = 0, medium = 1, high = 2 };

std::string_view to_string(Severity s);
std::string_view to_string(Confidence c);
std::optional<Severity> parse_severity(std::string_view s);
std::optional<Confidence> parse_confidence(std::string_view s);

}  // namespace triage
