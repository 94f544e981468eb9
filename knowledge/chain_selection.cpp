#include "knowledge/chain_selection.h"

#include <map>
#include <set>

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"

namespace triage {

bool ChainSelection::keeps_env(std::string_view name) const {
  for (const auto& n : env_names)
    if (name == n) return true;
  for (const auto& p : env_prefixes)
    if (name.starts_with(p)) return true;
  return false;
}

bool ChainSelection::keeps_wheel(std::string_view pep503_name) const {
  for (const auto& w : wheels)
    if (pep503_name == w) return true;
  return false;
}

bool ChainSelection::marks_mount(std::string_view text) const {
  for (const auto& m : mount_markers)
    if (text.find(m) != std::string_view::npos) return true;
  return false;
}

ChainSelection parse_chain_selection(std::string_view content, const std::string& name,
                                     std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"kind", "value", "why"};
  ChainSelection out;
  const std::map<std::string_view, std::vector<std::string>*> lists = {
      {"env-prefix", &out.env_prefixes}, {"env-name", &out.env_names},
      {"rank-env", &out.rank_envs},      {"wheel", &out.wheels},
      {"mount-marker", &out.mount_markers}};
  std::set<std::pair<std::string, std::string>> seen;
  for_each_table_row(content, name, kHeader, errors, [&](const std::string& where, const auto& f) {
    auto it = lists.find(f[0]);
    if (it == lists.end())
      return errors.push_back(where + ": kind '" + std::string(f[0]) +
                              "' is not env-prefix, env-name, rank-env, wheel or mount-marker");
    if (f[1].empty() || f[2].empty()) return errors.push_back(where + ": value and why are required");
    if (!seen.insert({std::string(f[0]), std::string(f[1])}).second)
      return errors.push_back(where + ": duplicate " + std::string(f[0]) + " " + std::string(f[1]));
    it->second->emplace_back(f[1]);
  });
  return out;
}

const ChainSelection& chain_selection_for(const std::string& dir, std::vector<std::string>& errors) {
  auto parse = [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
    return parse_chain_selection(c, n, e);
  };
  return cached_table<ChainSelection>(kChainSelectionFile, dir, parse, errors);
}

}  // namespace triage
