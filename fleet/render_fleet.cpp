// The fleet report as text, Markdown or JSON (schema ascend-triage-fleet/1, docs/fleet.md);
// HTML in render_fleet_html.cpp.
#include <fmt/format.h>

#include <cstdlib>
#include <ostream>

#include "fleet/fleet_phrases.h"
#include "fleet/fleet_report.h"
#include "model/time.h"
#include "reports/json_writer.h"
#include "reports/markdown_escape.h"

namespace triage::fleet {

namespace {

void text(const FleetReport& r, std::ostream& out) {
  out << "Fleet triage: " << headline(r) << "\n\n" << first_line(r) << "\n\n" << wait_line(r) << "\n\n";
  out << "Nodes, cause first (origin, waiter, other, clean), then skew-corrected time:\n";
  size_t i = 0;
  for (const auto& n : r.ranked) {
    out << fmt::format("{:>3}. {:<7} {}: {}", ++i, n.role, where(n), how(n));
    if (n.first && skew_applied(n)) out << ", corrected " << when(n.corrected_first_us);
    if (n.findings > 1) out << fmt::format(" (+{} more)", n.findings - 1);
    out << "\n";
  }
  out << "\nClock skew between nodes (" << r.shared_markers << " shared collective"
      << (r.shared_markers == 1 ? "" : "s") << "):\n";
  bool any = false;
  for (const auto& n : r.ranked)
    if (n.skew) {
      any = true;
      out << fmt::format("  {:<20} {} ({} collective{})\n", n.name, seconds(n.skew->offset_ms), n.skew->markers,
                         n.skew->markers == 1 ? "" : "s");
    }
  if (!any) out << "  not measurable: no collective was logged by two nodes\n";
  out << "  " << kSkewCaveat << "\n\nDifferences from the majority:\n";
  if (r.deviations.empty()) out << "  none: every node states the same versions and chains\n";
  for (const auto& d : r.deviations) {
    if (d.majority.empty())
      out << fmt::format("  {}: no majority across {} nodes:", d.component, d.nodes_with_value);
    else
      out << fmt::format("  {}: {} on {} of {} nodes; differs:", d.component, d.majority, d.majority_nodes,
                         d.nodes_with_value);
    for (const auto& [node, v] : d.others) out << " " << node << " " << v << ";";
    out << "\n";
  }
}

void markdown(const FleetReport& r, std::ostream& out) {
  out << "# Fleet triage\n\n" << md::text(headline(r)) << "\n\n**" << md::text(first_line(r))
      << "**\n\n" << md::text(wait_line(r))
      << "\n\n| # | role | node | first finding | class | first (node clock) | clock | corrected |\n"
      << "|---|---|---|---|---|---|---|---|\n";
  size_t i = 0;
  for (const auto& n : r.ranked) {
    out << fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", ++i, n.role, md::text(where(n)),
                       n.first ? md::text(n.first->id) : "", n.first ? n.first->klass : "",
                       n.first ? when(n.first->first_utc_us) : "", n.first ? md::text(n.first->clock) : "",
                       n.first ? when(n.corrected_first_us) : "");
  }
  out << "\n## Clock skew\n\n";
  for (const auto& n : r.ranked)
    if (n.skew)
      out << fmt::format("- {}: {} ({} shared collectives)\n", md::text(n.name), seconds(n.skew->offset_ms),
                         n.skew->markers);
  out << "\n" << kSkewCaveat << "\n\n## Differences from the majority\n\n";
  if (r.deviations.empty()) out << "None.\n";
  for (const auto& d : r.deviations) {
    out << "- " << md::text(d.component) << ": "
        << (d.majority.empty() ? std::string("no majority") : md::code(d.majority) + " on " +
                                     std::to_string(d.majority_nodes) + " of " + std::to_string(d.nodes_with_value))
        << "; differs:";
    for (const auto& [node, v] : d.others) out << " " << md::text(node) << " " << md::code(v) << ";";
    out << "\n";
  }
}

template <class T>
void optional_field(JsonWriter& w, std::string_view k, const std::optional<T>& v) {
  w.key(k);
  if (v) w.value(*v);
  else w.null();
}

void json(const FleetReport& r, std::ostream& out) {
  JsonWriter w(out);
  w.begin_object().field("schema", "ascend-triage-fleet/1");
  w.field("headline", headline(r)).field("first", first_line(r));
  w.key("nodes").begin_array();
  for (const auto& n : r.ranked) {
    w.begin_object().field("node", n.name).field("source", n.source).field("role", n.role);
    w.field("findings", static_cast<uint64_t>(n.findings));
    w.key("first_finding");
    if (!n.first) {
      w.null();
    } else {
      w.begin_object().field("id", n.first->id).field("class", n.first->klass).field("rank", n.first->rank);
      optional_field(w, "device", n.first->device);
      optional_field(w, "pid", n.first->pid);
      optional_field(w, "first_utc_us", n.first->first_utc_us);
      w.field("clock", n.first->clock);
      optional_field(w, "corrected_utc_us", n.corrected_first_us);
      w.end_object();
    }
    w.key("skew");
    if (!n.skew) w.null();
    else w.begin_object().field("offset_ms", n.skew->offset_ms).field("collectives", static_cast<uint64_t>(n.skew->markers)).end_object();
    w.end_object();
  }
  w.end_array();
  w.key("wait_graph").begin_object();
  w.field("edges", static_cast<uint64_t>(r.waits.edges)).field("ranks", static_cast<uint64_t>(r.waits.ranks));
  w.field("nodes_with_waits", static_cast<uint64_t>(r.waits.nodes_with_waits));
  w.field("summary", wait_line(r));
  w.key("root");
  if (!r.waits.root) {
    w.null();
  } else {
    const FleetWaitRoot& x = *r.waits.root;
    w.begin_object().field("text", x.text).field("node", x.node).field("rank", x.rank);
    optional_field(w, "device", x.device);
    w.field("address", x.address).field("waiters", static_cast<uint64_t>(x.waiters)).field("in_cycle", x.in_cycle);
    w.key("chain").begin_array();
    for (const auto& c : x.chain) w.value(c);
    w.end_array();
    w.field("chain_length", static_cast<uint64_t>(x.chain_length));
    optional_field(w, "first_error_us", x.first_error_us);
    optional_field(w, "corrected_first_error_us", x.corrected_first_error_us);
    w.key("agrees_with_cause_first_order");  // null: no node has a finding to compare with
    if (x.compared || !x.agrees) w.value(x.agrees);
    else w.null();
    w.field("disagreement", x.disagreement);
    w.end_object();
  }
  w.end_object();
  w.field("shared_collectives", static_cast<uint64_t>(r.shared_markers));
  w.field("skew_method", kSkewCaveat);
  w.key("deviations").begin_array();
  for (const auto& d : r.deviations) {
    w.begin_object().field("component", d.component).field("majority", d.majority);
    w.field("majority_nodes", static_cast<uint64_t>(d.majority_nodes));
    w.field("nodes_with_value", static_cast<uint64_t>(d.nodes_with_value));
    w.key("others").begin_array();
    for (const auto& [node, v] : d.others) w.begin_object().field("node", node).field("value", v).end_object();
    w.end_array().end_object();
  }
  w.end_array().end_object();
  out << "\n";
}

}  // namespace

void render_fleet(const FleetReport& r, FleetFormat format, std::ostream& out) {
  switch (format) {
    case FleetFormat::text: return text(r, out);
    case FleetFormat::md: return markdown(r, out);
    case FleetFormat::json: return json(r, out);
    case FleetFormat::html: return render_fleet_html(r, out);
  }
}

}  // namespace triage::fleet
