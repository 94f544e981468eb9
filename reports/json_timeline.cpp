// The "timeline" section of the JSON report (schema in docs/timeline.md "JSON").
#include "reports/json_writer.h"
#include "reports/render.h"

namespace triage {

namespace {

void evidence_json(JsonWriter& w, const EvidenceRef& e) {
  w.begin_object();
  w.field("entry", e.entry).field("line", e.line).field("offset", e.offset);
  w.field("excerpt", e.excerpt);
  w.end_object();
}

void optional_int(JsonWriter& w, std::string_view k, const std::optional<int64_t>& v) {
  w.key(k);
  if (v) w.value(*v);
  else w.null();
}

void local_time(JsonWriter& w, std::string_view k, int64_t utc_us, const std::optional<int>& off) {
  w.key(k);
  if (off) w.value(format_with_offset(utc_us, *off));
  else w.null();
}

void event_json(JsonWriter& w, const TimelineEvent& e) {
  w.begin_object();
  w.field("first_utc", format_utc(e.first_utc_us));
  local_time(w, "first_local", e.first_utc_us, e.local_offset_seconds);
  w.field("last_utc", format_utc(e.last_utc_us));
  local_time(w, "last_local", e.last_utc_us, e.local_offset_seconds);
  w.field("first_utc_us", e.first_utc_us).field("last_utc_us", e.last_utc_us);
  w.field("count", e.count);
  w.field("source", e.source).field("kind", e.kind);
  w.field("severity", to_string(e.severity));
  w.field("message", e.message);
  w.field("host", e.host);
  optional_int(w, "pid", e.pid);
  optional_int(w, "device", e.device);
  optional_int(w, "stream", e.stream);
  w.key("utc_offset");
  if (e.local_offset_seconds) w.value(format_offset(*e.local_offset_seconds));
  else w.null();
  w.field("time_note", e.time_note);
  w.key("evidence");
  evidence_json(w, e.evidence);
  w.key("finding_ids").begin_array();
  for (const auto& id : e.finding_ids) w.value(id);
  w.end_array();
  w.end_object();
}

}  // namespace

void write_timeline_json(JsonWriter& w, const Timeline& t) {
  w.begin_object();
  w.key("collection_utc");
  if (t.collection_utc_us) w.value(format_utc(*t.collection_utc_us));
  else w.null();
  w.key("events").begin_array();
  for (const auto& e : t.events) event_json(w, e);
  w.end_array();
  w.key("boots").begin_array();
  for (const auto& b : t.boots) {
    w.begin_object();
    w.field("host", b.host).field("boot_id", b.boot_id);
    w.field("start_utc", format_utc(b.start_utc_us)).field("start_utc_us", b.start_utc_us);
    w.field("reboot", b.after_previous);
    w.key("evidence");
    evidence_json(w, b.evidence);
    w.end_object();
  }
  w.end_array();
  w.key("skews").begin_array();
  for (const auto& s : t.skews) {
    w.begin_object();
    w.field("host", s.host).field("source_a", s.source_a).field("source_b", s.source_b);
    // milliseconds: the writer has no floating point, and a skew finer than 1 ms means nothing
    w.field("b_minus_a_ms", static_cast<int64_t>(s.b_minus_a_seconds * 1000.0 +
                                                 (s.b_minus_a_seconds < 0 ? -0.5 : 0.5)));
    w.field("pairs", s.pairs).field("method", s.method);
    w.key("a_evidence");
    evidence_json(w, s.a_evidence);
    w.key("b_evidence");
    evidence_json(w, s.b_evidence);
    w.end_object();
  }
  w.end_array();
  w.field("filtered_out", t.filtered_out);
  w.field("undated", t.undated);
  w.end_object();
}

}  // namespace triage
