#pragma once
// `analyze --format summary`: the per-node summary of fleet triage (the map step;
// docs/fleet.md, schema docs/schemas/summary.schema.json).
#include <ostream>
#include <string_view>

#include "reports/render.h"

namespace triage {

constexpr std::string_view kSummarySchema = "ascend-triage-summary/1";

// Summarises each host group (correlator/node_summary.cpp) after any --redact, so the
// pseudonyms carry over, and writes them as JSON.
void render_summary(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                    std::ostream& out);

}  // namespace triage
