#pragma once
// Renderers: no analysis here, only presentation of a Report and the facts behind it.
#include <ostream>
#include <string_view>

#include "model/host_facts.h"
#include "model/report.h"

namespace triage {

struct RenderOptions {
  bool color = false;  // ANSI colour in the text report
  int width = 100;     // columns for the text report
};

void render_text(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                 std::ostream& out);
void render_json(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                 std::ostream& out);

// Shared by renderers: one finding as JSON.
class JsonWriter;
void write_finding_json(JsonWriter& w, const Finding& f);

}  // namespace triage

namespace triage {
// `inventory`: every entry, its size, kind, why, line counts, and the unknown entries.
void render_inventory_text(const EvidenceSet& evidence, std::ostream& out);
void render_inventory_json(const EvidenceSet& evidence, std::ostream& out);
}  // namespace triage
