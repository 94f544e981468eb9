#include "reports/summary_report.h"

#include "correlator/summaries/node_summary.h"
#include "knowledge/fleet_roles.h"
#include "knowledge/wait_edges.h"
#include "model/time.h"
#include "reports/json_writer.h"

namespace triage {

namespace {

void time_fields(JsonWriter& w, std::string_view name, const std::optional<int64_t>& us) {
  w.key(std::string(name) + "_us");
  if (us) w.value(*us);
  else w.null();
  w.key(name);
  if (us) w.value(format_utc(*us));
  else w.null();
}

template <class T>
void optional_field(JsonWriter& w, std::string_view k, const std::optional<T>& v) {
  w.key(k);
  if (v) w.value(*v);
  else w.null();
}

void write_node(JsonWriter& w, const NodeSummary& n) {
  w.begin_object();
  w.field("host", n.host);
  w.key("inputs").begin_array();
  for (const auto& i : n.inputs) w.value(i);
  w.end_array();
  w.key("boots").begin_array();
  for (const auto& b : n.boots) {
    w.begin_object().field("boot_id", b.boot_id);
    time_fields(w, "start_utc", b.start_utc_us);
    w.end_object();
  }
  w.end_array();
  w.key("ranks").begin_array();
  for (const auto& r : n.ranks) {
    w.begin_object().field("rank", r.rank).field("pid", r.pid);
    optional_field(w, "device", r.device);
    w.end_object();
  }
  w.end_array();
  w.key("devices").begin_array();
  for (auto d : n.devices) w.value(d);
  w.end_array();
  w.key("pids").begin_array();
  for (auto p : n.pids) w.value(p);
  w.end_array();
  w.key("findings").begin_array();
  for (const auto& f : n.findings) {
    w.begin_object();
    w.field("id", f.id).field("severity", f.severity).field("class", f.klass).field("role", f.role);
    w.field("title", f.title);
    time_fields(w, "first_utc", f.first_utc_us);
    time_fields(w, "last_utc", f.last_utc_us);
    w.field("clock", f.clock);
    optional_field(w, "pid", f.pid);
    optional_field(w, "device", f.device);
    w.field("rank", f.rank);
    w.end_object();
  }
  w.end_array();
  w.key("skews").begin_array();
  for (const auto& k : n.skews)
    w.begin_object()
        .field("source_a", k.source_a)
        .field("source_b", k.source_b)
        .field("b_minus_a_ms", k.b_minus_a_ms)
        .field("method", k.method)
        .end_object();
  w.end_array();
  w.key("versions").begin_array();
  for (const auto& v : n.versions)
    w.begin_object().field("component", v.component).field("version", v.version).end_object();
  w.end_array();
  w.key("fingerprints").begin_array();
  for (const auto& fp : n.fingerprints)
    w.begin_object().field("name", fp.name).field("hash", fp.hash).field("items", fp.items).end_object();
  w.end_array();
  w.key("collectives").begin_array();
  for (const auto& c : n.collectives) {
    w.begin_object().field("key", c.key);
    time_fields(w, "first_utc", c.first_utc_us);
    w.field("clock", c.clock).field("count", c.count).end_object();
  }
  w.end_array();
  w.key("waits").begin_array();
  for (const auto& e : n.waits) {
    w.begin_object().field("signature", e.signature);
    w.field("waiter_rank", e.waiter_rank);
    optional_field(w, "waiter_pid", e.waiter_pid);
    optional_field(w, "waiter_device", e.waiter_device);
    w.field("waiter_address", e.waiter_address);
    w.field("target_rank", e.target_rank).field("target_address", e.target_address);
    time_fields(w, "first_utc", e.first_utc_us);
    w.field("clock", e.clock);
    time_fields(w, "waiter_first_error_utc", e.waiter_first_error_utc_us);
    w.field("count", e.count).end_object();
  }
  w.end_array();
  w.key("addresses").begin_array();
  for (const auto& a : n.addresses) {
    w.begin_object().field("ip", a.ip);
    optional_field(w, "device", a.device);
    w.field("rank", a.rank).field("source", a.source).end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace

void render_summary(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                    std::ostream& out) {
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", kSummarySchema);
  w.field("generator", "ascend-triage " ASCEND_TRIAGE_VERSION);
  if (!opt.redaction_note.empty()) w.field("redaction", opt.redaction_note);
  w.key("nodes").begin_array();
  // The built-in fleet-roles.tsv and wait-edges.tsv: renderers do not see --knowledge (docs/fleet.md).
  for (const auto& n : summarize_nodes(report, evidence, fleet_roles_for(""), wait_edges_for(""))) write_node(w, n);
  w.end_array();
  w.end_object();
  out << '\n';
}

}  // namespace triage
