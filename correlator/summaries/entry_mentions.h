#pragma once
// Per entry, what its facts name (model/bundle_summary.h EntryMentions), from the rows of
// `ascend-triage facts` (correlator/facts_listing.h), so both read the same facts.
#include <vector>

#include "correlator/summaries/facts_listing.h"
#include "model/bundle_summary.h"

namespace triage {

// One per entry that names a pid, device, rank, component, version or time, ordered by path.
std::vector<EntryMentions> entry_mentions(const std::vector<FactRow>& rows);

// The same as entry_mentions(list_facts(facts, scope)), without listing every row at once.
std::vector<EntryMentions> entry_mentions(const BundleFacts& facts, FactScope scope);

}  // namespace triage
