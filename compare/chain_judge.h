#pragma once
// The version pairs of a chain that the version tables (knowledge/versions/) or the version
// files' own compatibility lists declare incompatible: driver with firmware, each CANN with
// the driver, torch_npu with torch and its CANN. Judged by correlator/version_matrix's rules.
#include <string>
#include <vector>

#include "knowledge/version_tables.h"
#include "model/chain.h"

namespace triage {

struct IncompatiblePair {
  std::vector<std::string> items;  // chain item names (compare/chain_items.h)
  std::string reason;              // "version tables: ..."
};

std::vector<IncompatiblePair> incompatible_pairs(const Chain& chain, const VersionTables& tables);

}  // namespace triage
