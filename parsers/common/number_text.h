#pragma once
// A decimal number that is the whole of a field (`37.5`, `1.13`), as the collector's tool
// readings and /proc files print them: nothing before or after it, no locale.
#include <charconv>
#include <optional>
#include <string_view>

namespace triage {

inline std::optional<double> to_double(std::string_view s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace triage
