#pragma once
// A chain as comparable lines (layer, item, value): what `diff` compares, in a stable order.
// Items that name the same thing twice (a library mapped from two directories) are one item
// whose value lists both.
#include <vector>

#include "model/chain.h"

namespace triage {

std::vector<ChainItem> chain_items(const Chain& chain);

}  // namespace triage
