#include "reports/json_writer.h"
#include "reports/render.h"

namespace triage {

// Schema documented in docs/json-report.md; bump kSchemaVersion on incompatible changes.
static constexpr int kSchemaVersion = 1;

static void write_evidence(JsonWriter& w, const EvidenceRef& e) {
  w.begin_object();
  w.field("entry", e.entry).field("line", e.line).field("offset", e.offset);
  w.field("excerpt", e.excerpt);
  w.end_object();
}

void write_finding_json(JsonWriter& w, const Finding& f) {
  w.begin_object();
  w.field("id", f.id);
  w.field("severity", to_string(f.severity));
  w.field("confidence", to_string(f.confidence));
  w.field("host", f.host);
  w.field("title", f.title);
  w.field("observed", f.observed);
  w.field("supports", f.supports);
  w.field("does_not_prove", f.does_not_prove);
  w.key("next_checks").begin_array();
  for (const auto& c : f.next_checks) w.value(c);
  w.end_array();
  w.key("values").begin_object();
  for (const auto& [k, v] : f.values) w.field(k, v);
  w.end_object();
  w.key("evidence").begin_array();
  for (const auto& e : f.evidence) write_evidence(w, e);
  w.end_array();
  w.end_object();
}

static void write_stats(JsonWriter& w, const ParseStats& s) {
  w.begin_object();
  w.field("lines", s.lines).field("parsed", s.parsed).field("unrecognised", s.unrecognised);
  w.field("malformed", s.malformed).field("bytes", s.bytes);
  if (!s.variant.empty()) w.field("variant", s.variant);
  if (!s.not_collected.empty()) w.field("not_collected", s.not_collected);
  w.end_object();
}

void render_json(const Report& report, const EvidenceSet& evidence, const RenderOptions&,
                 std::ostream& out) {
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "ascend-triage-report").field("schema_version", kSchemaVersion);
  w.field("tool_version", ASCEND_TRIAGE_VERSION);
  w.key("bundles").begin_array();
  for (const auto& b : evidence.bundles) {
    w.begin_object();
    w.field("input", b.input).field("host", b.host);
    w.key("entries").begin_array();
    for (const auto& e : b.inventory.entries) {
      w.begin_object();
      w.field("path", e.info.path);
      w.field("kind", to_string(e.kind));
      w.field("size", e.info.size);
      w.key("stats");
      write_stats(w, e.stats);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("findings").begin_array();
  for (const auto& f : report.findings) write_finding_json(w, f);
  w.end_array();
  w.end_object();
}

}  // namespace triage
