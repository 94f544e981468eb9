// `--format jsonl`: Timesketch-importable events, one JSON object per line
// (docs/timeline.md "JSONL for Timesketch"). Required by Timesketch: message, datetime,
// timestamp (µs) and timestamp_desc; every other key becomes a searchable field.
#include <string>

#include "reports/json_writer.h"
#include "reports/render.h"

namespace triage {

namespace {

std::string_view timestamp_desc(const TimelineEvent& e) {
  if (e.kind == "process-start") return "Process Start";
  if (e.kind == "module-files") return "Module File Modified";
  if (e.kind == "probe-run") return "Probe Started";
  if (e.kind == "collection") return "Bundle Collected";
  if (e.kind == "install") return "Installer Log Time";
  return "Event First Seen";
}

void common_fields(JsonWriter& w, int64_t utc_us, const std::optional<int>& offset) {
  w.field("datetime", format_utc(utc_us));
  w.field("timestamp", utc_us);
  w.key("local_datetime");
  if (offset) w.value(format_with_offset(utc_us, *offset));
  else w.null();
}

void optional_int(JsonWriter& w, std::string_view k, const std::optional<int64_t>& v) {
  if (v) w.field(k, *v);
}

}  // namespace

void render_jsonl(const Report& report, const EvidenceSet&, const RenderOptions& opt,
                  std::ostream& out) {
  const Timeline& t = report.timeline;
  for (const TimelineEvent& e : t.events) {
    JsonWriter w(out, false);
    w.begin_object();
    w.field("message", e.message);
    common_fields(w, e.first_utc_us, e.local_offset_seconds);
    w.field("timestamp_desc", timestamp_desc(e));
    w.field("source", e.source).field("kind", e.kind);
    w.field("severity", to_string(e.severity));
    w.field("host", e.host);
    optional_int(w, "pid", e.pid);
    optional_int(w, "device", e.device);
    optional_int(w, "stream", e.stream);
    w.field("count", e.count);
    w.field("last_datetime", format_utc(e.last_utc_us));
    if (!e.time_note.empty()) w.field("time_note", e.time_note);
    w.field("entry", e.evidence.entry).field("line", e.evidence.line);
    std::string ids;
    for (const auto& id : e.finding_ids) ids += (ids.empty() ? "" : ",") + id;
    if (!ids.empty()) w.field("finding_ids", ids);
    if (!opt.redaction_note.empty()) w.field("redaction", opt.redaction_note);
    w.end_object();
    out << '\n';
  }
  for (const BootMark& b : t.boots) {
    JsonWriter w(out, false);
    w.begin_object();
    w.field("message", (b.after_previous ? "reboot: boot " : "boot ") + b.boot_id);
    common_fields(w, b.start_utc_us, std::nullopt);
    w.field("timestamp_desc", std::string_view("Boot"));
    w.field("source", std::string_view("boot")).field("kind", std::string_view("boot"));
    w.field("severity", std::string_view("info"));
    w.field("host", b.host).field("boot_id", b.boot_id);
    w.field("count", uint64_t{1});
    w.field("last_datetime", format_utc(b.start_utc_us));
    w.field("entry", b.evidence.entry).field("line", b.evidence.line);
    if (!opt.redaction_note.empty()) w.field("redaction", opt.redaction_note);
    w.end_object();
    out << '\n';
  }
}

}  // namespace triage
