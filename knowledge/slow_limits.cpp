#include "knowledge/slow_limits.h"

#include <charconv>
#include <set>

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"

namespace triage {

SlowLimits parse_slow_limits(std::string_view content, const std::string& name, std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"name", "chip", "value", "source", "why"};
  static const std::set<std::string_view> kNames = {"rated_freq_mhz", "freq_ratio_min", "busy_aicore_pct",
                                                    "temp_alarm_c", "psi_some_avg10_pct", "load_per_cpu",
                                                    "nonvoluntary_share", "min_switches", "hccl_connect_timeout_s"};
  SlowLimits out;
  for_each_table_row(content, name, kHeader, errors, [&](const std::string& where, const std::vector<std::string_view>& f) {
    if (!kNames.count(f[0])) return errors.push_back(where + ": unknown limit '" + std::string(f[0]) + "'");
    if (f[1].empty()) return errors.push_back(where + ": chip is empty (use * for every chip)");
    double v = 0;
    auto [p, ec] = std::from_chars(f[2].data(), f[2].data() + f[2].size(), v);
    if (ec != std::errc() || p != f[2].data() + f[2].size() || v < 0)
      return errors.push_back(where + ": value '" + std::string(f[2]) + "' is not a number >= 0");
    if (f[3].empty() || f[4].empty()) return errors.push_back(where + ": every limit needs a source and a why");
    for (const auto& r : out.rows)
      if (r.name == f[0] && r.chip == f[1]) return errors.push_back(where + ": " + std::string(f[0]) + " for " + std::string(f[1]) + " twice");
    out.rows.push_back({std::string(f[0]), std::string(f[1]), v, std::string(f[3]), std::string(f[4])});
  });
  for (std::string_view n : kNames) {
    if (n == "rated_freq_mhz") continue;  // per chip family, optional
    bool any = false;
    for (const auto& r : out.rows) any = any || (r.name == n && r.chip == "*");
    if (!any) errors.push_back(name + ": no row for " + std::string(n) + " with chip *");
  }
  return out;
}

const SlowLimit* SlowLimits::row(std::string_view name, std::string_view chip) const {
  const SlowLimit* best = nullptr;
  for (const auto& r : rows) {
    if (r.name != name) continue;
    if (r.chip == "*") {
      if (!best) best = &r;
    } else if (!chip.empty() && chip.starts_with(r.chip) && (!best || best->chip == "*" || r.chip.size() > best->chip.size())) {
      best = &r;
    }
  }
  return best;
}

std::optional<double> SlowLimits::value(std::string_view name, std::string_view chip) const {
  const SlowLimit* r = row(name, chip);
  return r ? std::optional<double>(r->value) : std::nullopt;
}

const SlowLimits& slow_limits_for(const std::string& dir) {
  return cached_table<SlowLimits>(kSlowLimitsFile, dir,
                                  [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
                                    return parse_slow_limits(c, n, e);
                                  });
}

}  // namespace triage
