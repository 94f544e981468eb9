#pragma once
// Compares two chains item by item (compare/chain_items.h). A change is "cited" when a finding
// of CURRENT's own analysis names the item's evidence (same entry and line), and "breaking"
// when such a finding is at warning or above or the version tables judge CURRENT's new
// combination incompatible. Cited changes come first, then the rest by layer and item.
#include <vector>

#include "knowledge/version_tables.h"
#include "model/chain.h"
#include "model/finding.h"

namespace triage {

// `findings` are CURRENT's (empty when CURRENT is a baseline file).
ChainDiff diff_chains(const Chain& baseline, const Chain& current, const std::vector<Finding>& findings,
                      const VersionTables& tables);

}  // namespace triage
