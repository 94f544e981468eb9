#pragma once
// The inputs of `ascend-triage fleet`: summary files, directories of them, @list files and
// bundles, and the map step for bundles (each analysed by a child `analyze --format summary`,
// at most `jobs` at a time, so memory stays bounded by `jobs` bundles however large the fleet).
#include <string>
#include <vector>

namespace triage::cli {

struct FleetInputs {
  std::vector<std::string> summaries;  // files to read
  std::vector<std::string> bundles;    // to map first
};

// Expands the arguments; false after a message naming the input that cannot be used.
bool expand_fleet_inputs(const std::vector<std::string>& args, FleetInputs& out);

// Maps each bundle to DIR/<n>.summary.json with up to `jobs` children of this executable;
// appends the files written to `summaries`. False after a message naming each bundle that could
// not be analysed.
bool map_bundles(const std::vector<std::string>& bundles, const std::string& dir, unsigned jobs,
                 const std::vector<std::string>& global_args, bool quiet,
                 std::vector<std::string>& summaries);

}  // namespace triage::cli
