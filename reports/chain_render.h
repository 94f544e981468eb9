#pragma once
// Renderers of the execution chain (`ascend-triage baseline`) and of a chain diff
// (`ascend-triage diff`): docs/diff.md. They format what compare/ computed.
#include <ostream>
#include <string_view>

#include "model/chain.h"

namespace triage {

// The baseline document, schema ascend-triage-baseline/1 (docs/schemas/baseline.schema.json).
void render_baseline_json(const Chain& chain, std::ostream& out);

// The diff in text, md (Markdown) or json (docs/diff.md); text and md print nothing when
// nothing differs. Returns false for an unknown format.
bool render_chain_diff(const ChainDiff& diff, std::string_view format, std::ostream& out);

}  // namespace triage
