#pragma once
// The entries counted past --max-listed-entries, as JSON: the same array in the report
// (bundles[].folded_entries) and in `inventory --format json` (bundles[].folded).
#include "model/facts_inventory.h"
#include "reports/json_writer.h"

namespace triage {

void write_folded_entries(JsonWriter& w, const InventoryFacts& inventory);

}  // namespace triage
