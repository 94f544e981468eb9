#include <algorithm>

#include "model/bundle_summary.h"
#include "knowledge/same_event.h"
#include "reports/also_read_as.h"
#include "reports/json_folded.h"
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
  for (const auto& [k, v] : f.values)
    if (k != kAlsoReadAsValue) w.field(k, v);  // those as the also_read_as array below
  w.end_object();
  w.key("evidence").begin_array();
  for (const auto& e : f.evidence) write_evidence(w, e);
  w.end_array();
  if (!f.same_failure.empty()) {  // only when there are some: most findings have none
    w.key("same_failure").begin_array();
    for (const auto& e : f.same_failure) write_evidence(w, e);
    w.end_array();
  }
  if (f.find_value(kAlsoReadAsValue)) {  // only when another finding read the same event
    w.key("also_read_as").begin_array();
    for (const auto& [k, v] : f.values) {
      if (k != kAlsoReadAsValue) continue;
      AlsoReadAsValue p = parse_also_read_as(v);
      w.begin_object().field("id", p.id).field("title", p.title).field("observed", p.observed).end_object();
    }
    w.end_array();
  }
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

template <class T>
static void field_or_null(JsonWriter& w, std::string_view k, const std::optional<T>& v) {
  w.key(k);
  if (v) w.value(*v);
  else w.null();
}

static void write_outcome(JsonWriter& w, const ItemOutcome& o) {
  w.begin_object();
  w.field("path", o.path);
  w.field("status", o.status == ItemStatus::other ? std::string_view(o.status_text) : to_string(o.status));
  w.field("reason", o.reason).field("error", o.error);
  field_or_null(w, "rc", o.rc);
  field_or_null(w, "duration_ms", o.duration_ms);
  w.field("truncated", o.truncated);
  w.key("kept_ranges").begin_array();
  for (const auto& [a, z] : o.kept_ranges) w.begin_array().value(a).value(z).end_array();
  w.end_array();
  w.key("files").begin_array();  // a not-collected step: all its files ([] otherwise)
  for (const auto& f : o.files) w.value(f);
  w.end_array();
  w.end_object();
}

// The bundle summary (docs/json-report.md: "summary").
static void write_summary(JsonWriter& w, const BundleSummary& s) {
  w.begin_object();
  w.field("host", s.host).field("host_origin", s.host_origin);
  w.field("os", s.os).field("kernel_release", s.kernel_release);
  w.key("collected_at_utc");
  if (s.collected_at_us) w.value(format_utc(*s.collected_at_us));
  else w.null();
  w.key("collected_at_local");
  if (s.collected_at_us && s.local_offset) w.value(format_with_offset(*s.collected_at_us, *s.local_offset));
  else w.null();
  w.field("collected_at_origin", s.collected_at_origin);
  w.key("zone");
  if (s.zone.empty()) w.null();
  else w.value(s.zone);
  w.field("zone_origin", s.zone_origin);
  w.field("boot_id", s.boot_id);
  w.key("btime_utc");
  if (s.btime) w.value(format_utc(*s.btime * 1000000));
  else w.null();
  w.key("versions").begin_array();
  for (const auto& v : s.versions)
    w.begin_object().field("component", v.component).field("version", v.version)
        .field("entry", v.evidence.entry).field("line", v.evidence.line).end_object();
  w.end_array();
  w.key("manifest").begin_object();
  w.field("present", s.has_manifest);
  w.field("collector_version", s.collector_version);
  w.key("args").begin_array();
  for (const auto& a : s.collector_args) w.value(a);
  w.end_array();
  field_or_null(w, "format_version", s.format_version);
  field_or_null(w, "uid", s.uid);
  w.field("sudo_user", s.sudo_user);
  field_or_null(w, "in_container", s.in_container);
  w.field("items_origin", s.items_origin);
  w.field("items", static_cast<uint64_t>(s.items));
  w.key("status_counts").begin_object();
  for (auto st : {ItemStatus::ok, ItemStatus::absent, ItemStatus::denied, ItemStatus::skipped,
                  ItemStatus::failed, ItemStatus::timed_out, ItemStatus::abandoned, ItemStatus::other})
    w.field(to_string(st), static_cast<uint64_t>(s.count(st)));
  w.end_object();
  w.field("truncated", static_cast<uint64_t>(s.truncated_count));
  w.end_object();
  const auto& c = s.counted_only;
  w.key("counted_only").begin_object()
      .field("folded_lines", c.folded_lines).field("folded_templates", c.folded_templates)
      .field("folded_entries", c.folded_entries).field("level_lines_over_cap", c.level_lines_over_cap)
      .field("level_entries_over_cap", c.level_entries_over_cap).end_object();
  w.key("not_collected").begin_array();
  for (const auto& o : s.not_collected) write_outcome(w, o);
  w.end_array();
  w.key("truncated").begin_array();
  for (const auto& o : s.truncated) write_outcome(w, o);
  w.end_array();
  w.key("tool_errors").begin_array();
  for (const auto& t : s.tool_errors) w.begin_object().field("path", t.path).field("reason", t.reason).end_object();
  w.end_array();
  w.key("notes").begin_array();
  for (const auto& n : s.notes) w.value(n);
  w.end_array();
  w.end_object();
}

static const EntryMentions* find_mentions(const std::vector<EntryMentions>& all, const std::string& path) {
  auto it = std::lower_bound(all.begin(), all.end(), path,
                             [](const EntryMentions& m, const std::string& p) { return m.path < p; });
  return it != all.end() && it->path == path ? &*it : nullptr;
}

static void write_mentions(JsonWriter& w, const EntryMentions& m) {
  w.begin_object();
  auto values = [&](const char* key, const EntryMentions::Values& v) {
    w.key(key).begin_object();
    w.key("shown").begin_array();
    for (const auto& s : v.shown) w.value(s);
    w.end_array();
    w.field("total", v.total);
    w.end_object();
  };
  values("pids", m.pids);
  values("devices", m.devices);
  values("ranks", m.ranks);
  values("components", m.components);
  values("versions", m.versions);
  // Omitted when no line of the entry carries a time; `line` when the time is one line's (a plog
  // entry's span is the entry's own).
  auto time = [&](const char* key, const std::string& text, uint64_t line) {
    if (text.empty()) return;
    w.key(key).begin_object().field("as_printed", text);
    if (line) w.field("line", line);
    w.end_object();
  };
  time("first_time", m.first_time, m.first_time_line);
  time("last_time", m.last_time, m.last_time_line);
  w.end_object();
}

void render_json(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                 std::ostream& out) {
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "ascend-triage-report").field("schema_version", kSchemaVersion);
  w.field("tool_version", ASCEND_TRIAGE_VERSION);
  if (!opt.redaction_note.empty()) w.field("redaction", opt.redaction_note);
  w.key("bundles").begin_array();
  for (size_t i = 0; i < evidence.bundles.size(); ++i) {
    const BundleFacts& b = evidence.bundles[i];
    w.begin_object();
    w.field("input", b.input).field("host", b.host);
    if (i < report.bundles.size()) {
      w.key("summary");
      write_summary(w, report.bundles[i]);
    }
    w.key("entries").begin_array();
    for (const auto& e : b.inventory.entries) {
      w.begin_object();
      w.field("path", e.info.path);
      w.field("kind", to_string(e.kind));
      w.field("size", e.info.size);
      w.key("stats");
      write_stats(w, e.stats);
      if (i < report.bundles.size())
        if (const EntryMentions* m = find_mentions(report.bundles[i].mentions, e.info.display)) {
          w.key("mentions");
          write_mentions(w, *m);
        }
      w.end_object();
    }
    w.end_array();
    if (!b.inventory.folded.empty()) {
      w.key("folded_entries");
      write_folded_entries(w, b.inventory);
    }
    w.end_object();
  }
  w.end_array();
  w.key("verdict");
  write_verdict_json(w, report.verdict);
  w.key("findings").begin_array();
  for (const auto& f : report.findings) write_finding_json(w, f);
  w.end_array();
  w.key("timeline");
  write_timeline_json(w, report.timeline);
  w.end_object();
}

}  // namespace triage
