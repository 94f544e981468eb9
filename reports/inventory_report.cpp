#include <fmt/format.h>

#include "reports/json_writer.h"
#include "reports/render.h"

namespace triage {

void render_inventory_text(const EvidenceSet& evidence, std::ostream& out) {
  for (const auto& b : evidence.bundles) {
    out << fmt::format("# {} (host {})\n", b.input, b.host.empty() ? "unknown" : b.host);
    out << fmt::format("{:<56} {:>10} {:<22} {:>8} {:>8} {:>6} {:>6}  {}\n", "entry", "bytes",
                       "kind", "lines", "parsed", "unrec", "malf", "classified by");
    uint64_t unknown = 0;
    for (const auto& e : b.inventory.entries) {
      unknown += e.kind == SourceKind::unknown;
      out << fmt::format("{:<56} {:>10} {:<22} {:>8} {:>8} {:>6} {:>6}  {}{}{}\n", e.info.path,
                         e.info.size, to_string(e.kind), e.stats.lines, e.stats.parsed,
                         e.stats.unrecognised, e.stats.malformed, to_string(e.classified_by),
                         e.reason.empty() ? "" : ": ", e.reason);
    }
    out << fmt::format("{} entries, {} not recognised\n", b.inventory.entries.size(), unknown);
  }
}

void render_inventory_json(const EvidenceSet& evidence, std::ostream& out) {
  JsonWriter w(out);
  w.begin_object().key("bundles").begin_array();
  for (const auto& b : evidence.bundles) {
    w.begin_object().field("input", b.input).field("host", b.host);
    w.key("entries").begin_array();
    for (const auto& e : b.inventory.entries) {
      w.begin_object();
      w.field("path", e.info.path).field("display", e.info.display);
      w.field("size", e.info.size).field("kind", to_string(e.kind));
      w.field("classified_by", to_string(e.classified_by)).field("reason", e.reason);
      w.field("lines", e.stats.lines).field("parsed", e.stats.parsed);
      w.field("unrecognised", e.stats.unrecognised).field("malformed", e.stats.malformed);
      w.end_object();
    }
    w.end_array().end_object();
  }
  w.end_array().end_object();
}

}  // namespace triage
