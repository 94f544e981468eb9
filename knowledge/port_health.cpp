#include "knowledge/port_health.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"
#include "model/strings.h"

namespace triage {

const std::vector<std::string_view>& port_health_rule_ids() {
  static const std::vector<std::string_view> ids = {"link-flap",   "fec-mode",      "net-health", "optical-absent",
                                                    "ip-missing",  "optical-power", "optical-los", "optical-lol"};
  return ids;
}

const PortHealthRule* PortHealthRules::find(std::string_view rule) const {
  for (const auto& r : rules)
    if (r.rule == rule) return &r;
  return nullptr;
}

PortHealthRules parse_port_health(std::string_view content, const std::string& name, std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"rule", "ascend_fd", "query", "threshold", "meaning", "source"};
  PortHealthRules out;
  std::set<std::string, std::less<>> seen;
  const auto& ids = port_health_rule_ids();
  for_each_table_row(content, name, kHeader, errors, [&](const std::string& where, const std::vector<std::string_view>& f) {
    if (std::find(ids.begin(), ids.end(), f[0]) == ids.end())
      return errors.push_back(where + ": rule '" + std::string(f[0]) + "' is none the port-health analysis knows");
    if (!seen.insert(std::string(f[0])).second) return errors.push_back(where + ": duplicate rule " + std::string(f[0]));
    if (f[1].empty() || f[2].empty() || f[3].empty() || f[4].empty() || f[5].empty())
      return errors.push_back(where + ": every column is required ('-' for a rule without a threshold)");
    PortHealthRule r{std::string(f[0]), std::string(f[1]), std::string(f[2]), std::string(f[3]), {},
                     std::string(f[4]), std::string(f[5])};
    if (r.threshold != "-") {
      std::vector<std::string_view> parts;
      split_into(f[3], '|', parts);
      for (auto p : parts) r.values.emplace_back(trim(p));
    }
    if (r.rule == "link-flap") {
      int secs = 0;
      auto [p, ec] = std::from_chars(r.threshold.data(), r.threshold.data() + r.threshold.size(), secs);
      if (ec != std::errc() || p != r.threshold.data() + r.threshold.size() || secs < 0)
        return errors.push_back(where + ": link-flap's threshold is a number of seconds");
    } else if ((r.rule == "optical-power" || r.rule == "ip-missing") != (r.threshold == "-")) {
      return errors.push_back(where + ": " + r.rule + (r.threshold == "-" ? " needs a threshold" : " takes '-' as threshold"));
    }
    out.rules.push_back(std::move(r));
  });
  for (auto id : ids)
    if (!seen.count(id)) errors.push_back(name + ": no row for rule " + std::string(id));
  return out;
}

const PortHealthRules& port_health_for(const std::string& dir) {
  return cached_table<PortHealthRules>(
      kPortHealthFile, dir, [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return parse_port_health(c, n, e);
      });
}

}  // namespace triage
