#pragma once
// Facts in an order that does not depend on the order the input stored its members in.
#include "model/host_facts.h"

namespace triage {

// Puts every fact list that several entries append to in the entries' walk order (the
// order a directory is read in: path components compared one by one, the bundle's
// manifest.json first), keeping each entry's facts in the order its parser wrote them.
// A directory is read in this order already; an archive's members come in any order.
// Runs after the entries are read and before finalize, whose dedupes keep the first copy.
void order_facts_by_entry(BundleFacts& bundle);

// How many facts the bundle holds: the input stage compares it before and after an entry
// to tell an entry that added facts from one that added only counts.
size_t fact_count(const BundleFacts& bundle);

// The walk order of two bundle paths ("a/x" before "a-b/x", as a directory walk has it).
bool walk_order_less(std::string_view a, std::string_view b);

}  // namespace triage
