#include "reports/json_folded.h"

namespace triage {

void write_folded_entries(JsonWriter& w, const InventoryFacts& inv) {
  w.begin_array();
  for (const auto& f : inv.folded) {
    w.begin_object().field("kind", to_string(f.kind));
    if (!f.skipped.empty()) w.field("skipped", f.skipped);
    w.field("entries", f.entries).field("size", f.size);
    w.field("lines", f.stats.lines).field("parsed", f.stats.parsed);
    w.field("unrecognised", f.stats.unrecognised).field("bytes", f.stats.bytes);
    w.field("lines_recognised", f.stats.lines_recognised);
    w.field("lines_unrecognised", f.stats.lines_unrecognised);
    w.key("samples").begin_array();
    for (const auto& p : f.samples) w.value(p);
    w.end_array();
    w.end_object();
  }
  w.end_array();
}

}  // namespace triage
