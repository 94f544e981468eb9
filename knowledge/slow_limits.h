#pragma once
// knowledge/slow-limits.tsv: the limits of the slow-rank analysis (issue 37, slow not stuck) and
// the default HCCL_CONNECT_TIMEOUT a late rank is measured against (collective/late-arrival):
// rated AI Core frequency per chip family (a fallback), down-clocking ratio, busy AI Core share,
// temperature alarm, CPU pressure, load per CPU, forced context-switch share.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace triage {

constexpr std::string_view kSlowLimitsFile = "slow-limits.tsv";

struct SlowLimit {
  std::string name, chip;  // chip: a chip-name prefix, or "*"
  double value = 0;
  std::string source, why;
};

struct SlowLimits {
  std::vector<SlowLimit> rows;
  // The value of `name` for a chip named `chip` (the longest prefix row, else "*"), or
  // nullopt when no row applies.
  std::optional<double> value(std::string_view name, std::string_view chip = {}) const;
  const SlowLimit* row(std::string_view name, std::string_view chip = {}) const;
};

SlowLimits parse_slow_limits(std::string_view content, const std::string& name, std::vector<std::string>& errors);
// The table for a --knowledge value ("" = built-in).
const SlowLimits& slow_limits_for(const std::string& dir);

}  // namespace triage
