#pragma once
// knowledge/chain-selection.tsv: what `baseline` and `diff` keep of a host and its processes
// (environment variables, rank variables, wheels, mounts). Read by compare/.
#include <string>
#include <string_view>
#include <vector>

namespace triage {

constexpr std::string_view kChainSelectionFile = "chain-selection.tsv";

struct ChainSelection {
  std::vector<std::string> env_prefixes, env_names, rank_envs, wheels, mount_markers;
  bool keeps_env(std::string_view name) const;
  bool keeps_wheel(std::string_view pep503_name) const;
  bool marks_mount(std::string_view text) const;
};

// Columns kind, value, why; problems as "file:line: message".
ChainSelection parse_chain_selection(std::string_view content, const std::string& name,
                                     std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/chain-selection.tsv replaces it).
// Problems of the file end up in `errors` the first time it is loaded.
const ChainSelection& chain_selection_for(const std::string& dir, std::vector<std::string>& errors);

}  // namespace triage
