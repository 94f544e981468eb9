#pragma once
// One argument of `baseline` / `diff`: a bundle (any input form analyze takes) or a baseline
// file (told apart by content). Prints why and returns false when it cannot be read (exit 2).
#include <string>
#include <vector>

#include "cli/commands.h"
#include "model/chain.h"
#include "model/finding.h"

namespace triage::cli {

struct ChainInput {
  Chain chain;
  bool is_baseline = false;        // a baseline file, not a bundle
  std::vector<Finding> findings;   // the bundle's own analysis (when asked for)
};

bool load_chain_input(const std::string& path, const GlobalOptions& g, bool analyse, bool allow_baseline,
                      ChainInput& out);

}  // namespace triage::cli
