// `fleet --format html`: the fleet report as one self-contained offline page, like
// `analyze --format html` (same stylesheet and Content-Security-Policy: no script, nothing
// fetched). Every string from a summary (host names, ranks, finding ids, versions) is escaped.
// The sentences are the other formats' (fleet_phrases.h); the page adds a chart of the nodes'
// skew-corrected first findings, one lane per node, labels in their own column so that they
// cannot overlap.
#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "fleet/fleet_phrases.h"
#include "fleet/fleet_report.h"
#include "reports/html_escape.h"
#include "reports/html_style.h"

namespace triage::fleet {
namespace {

using html::escape;

constexpr int kLaneHeight = 22, kLabelWidth = 260, kChartWidth = 640, kPad = 12;
constexpr size_t kLabelBytes = 36;  // a lane label longer than this is cut (the table has it whole)

std::string role_class(std::string_view role) {
  if (role == "origin") return "sev-error";
  if (role == "waiter") return "sev-warning";
  return "sev-info";
}

// At most kLabelBytes, cut at a UTF-8 character boundary, with an ellipsis when cut.
std::string lane_label(const std::string& s) {
  if (s.size() <= kLabelBytes) return s;
  size_t cut = kLabelBytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "\u2026";
}

// The nodes' first findings on one axis: skew-corrected time (node clock when no skew was
// applied), relative to the earliest. Nodes without a dated finding get no lane.
void chart(const FleetReport& r, std::string& out) {
  std::vector<const RankedNode*> lanes;
  for (const auto& n : r.ranked)
    if (n.first && n.corrected_first_us) lanes.push_back(&n);
  if (lanes.empty()) {
    out += "<p class=\"muted\">No node has a dated finding: nothing to place on a time axis.</p>\n";
    return;
  }
  int64_t lo = *lanes.front()->corrected_first_us, hi = lo;
  for (const auto* n : lanes) lo = std::min(lo, *n->corrected_first_us), hi = std::max(hi, *n->corrected_first_us);
  const double span = static_cast<double>(hi - lo);
  const int height = static_cast<int>(lanes.size()) * kLaneHeight + 2 * kPad + 16;
  const int width = kLabelWidth + kChartWidth + 2 * kPad;
  out += fmt::format("<svg class=\"fleet-chart\" role=\"img\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\n",
                     width, height, width, height);
  out += "<title>First finding per node, skew-corrected, relative to the earliest</title>\n";
  const int x0 = kLabelWidth + kPad, x1 = x0 + kChartWidth - 2 * kPad;
  for (size_t i = 0; i < lanes.size(); ++i) {
    const RankedNode& n = *lanes[i];
    const int y = kPad + static_cast<int>(i) * kLaneHeight + kLaneHeight / 2;
    const double frac = span > 0 ? static_cast<double>(*n.corrected_first_us - lo) / span : 0.0;
    const int x = x0 + static_cast<int>(frac * (x1 - x0));
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#d6dbe0\"/>\n", x0, y, x1, y);
    out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" dominant-baseline=\"middle\">{}</text>\n", kPad, y,
                       escape(lane_label(where(n))));
    out += fmt::format("<circle class=\"{}\" cx=\"{}\" cy=\"{}\" r=\"6\"><title>{}: {}, {}</title></circle>\n",
                       role_class(n.role), x, y, escape(n.role), escape(where(n)), escape(how(n)));
  }
  const int axis = kPad + static_cast<int>(lanes.size()) * kLaneHeight + 12;
  out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>\n", x0, axis, escape(when(lo)));
  out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">+{:.1f} s</text>\n", x1, axis,
                     span / 1e6);
  out += "</svg>\n";
}

void nodes_table(const FleetReport& r, std::string& out) {
  out += "<table class=\"fleet\"><thead><tr><th>#</th><th>role</th><th>node</th><th>first finding</th>"
         "<th>class</th><th>first (node clock)</th><th>clock</th><th>corrected</th><th>more</th></tr></thead>\n<tbody>\n";
  size_t i = 0;
  for (const auto& n : r.ranked) {
    out += fmt::format("<tr class=\"{}\"><td>{}</td><td><span class=\"badge\">{}</span></td><td>{}</td>",
                       role_class(n.role), ++i, escape(n.role), escape(where(n)));
    if (n.first)
      out += fmt::format("<td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>", escape(n.first->id),
                         escape(n.first->klass), escape(when(n.first->first_utc_us)), escape(n.first->clock),
                         escape(when(n.corrected_first_us)));
    else
      out += "<td colspan=\"5\">no finding at warning or above</td>";
    out += fmt::format("<td>{}</td></tr>\n", n.findings > 1 ? fmt::format("+{}", n.findings - 1) : std::string());
  }
  out += "</tbody></table>\n";
}

void wait_root(const FleetReport& r, std::string& out) {
  out += fmt::format("<p>{}</p>\n", escape(wait_line(r)));
  if (!r.waits.root || r.waits.root->chain.empty()) return;
  const FleetWaitRoot& w = *r.waits.root;
  out += fmt::format("<details><summary>Wait chain ({} step{}{})</summary>\n<ol>\n", w.chain_length,
                     w.chain_length == 1 ? "" : "s", w.chain.size() < w.chain_length ? ", the last shown" : "");
  for (const auto& c : w.chain) out += fmt::format("<li>{}</li>\n", escape(c));
  out += "</ol>\n</details>\n";
}

void skew_and_deviations(const FleetReport& r, std::string& out) {
  out += fmt::format("<h2 id=\"skew\">Clock skew ({} shared collective{})</h2>\n", r.shared_markers,
                     r.shared_markers == 1 ? "" : "s");
  bool any = false;
  for (const auto& n : r.ranked) any = any || n.skew.has_value();
  if (!any) {
    out += "<p>Not measurable: no collective was logged by two nodes.</p>\n";
  } else {
    out += "<table><thead><tr><th>node</th><th>offset</th><th>collectives</th><th>applied</th></tr></thead>\n<tbody>\n";
    for (const auto& n : r.ranked)
      if (n.skew)
        out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", escape(n.name),
                           escape(seconds(n.skew->offset_ms)), n.skew->markers, skew_applied(n) ? "yes" : "no");
    out += "</tbody></table>\n";
  }
  out += fmt::format("<p class=\"muted\">{}</p>\n", escape(kSkewCaveat));
  out += "<h2 id=\"deviations\">Differences from the majority</h2>\n";
  if (r.deviations.empty()) {
    out += "<p>None: every node states the same versions and chains.</p>\n";
    return;
  }
  out += "<ul>\n";
  for (const auto& d : r.deviations) {
    out += "<li>" + escape(d.component) + ": ";
    out += d.majority.empty() ? fmt::format("no majority across {} nodes", d.nodes_with_value)
                              : fmt::format("<code>{}</code> on {} of {} nodes", escape(d.majority), d.majority_nodes,
                                            d.nodes_with_value);
    out += "; differs:";
    for (const auto& [node, v] : d.others) out += fmt::format(" {} <code>{}</code>;", escape(node), escape(v));
    out += "</li>\n";
  }
  out += "</ul>\n";
}

}  // namespace

void render_fleet_html(const FleetReport& r, std::ostream& out) {
  std::string page;
  page.reserve(32 * 1024);
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; img-src data:\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<meta name=\"referrer\" content=\"no-referrer\">\n";
  page += "<title>ascend-triage fleet report</title>\n<style>";
  page += html::kStyle;
  page += "table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid var(--line);padding:3px 7px;"
          "text-align:left;vertical-align:top}svg.fleet-chart circle.sev-error{fill:var(--error)}"
          "svg.fleet-chart circle.sev-warning{fill:var(--warning)}svg.fleet-chart circle.sev-info{fill:var(--info)}";
  page += "</style>\n</head>\n<body>\n<h1>Fleet triage</h1>\n";
  page += fmt::format("<p class=\"sub\">{}. Times are UTC.</p>\n", escape(headline(r)));
  page += fmt::format("<div class=\"card verdict\"><p class=\"summary\">{}</p>\n", escape(first_line(r)));
  wait_root(r, page);
  page += "</div>\n<h2 id=\"chart\">First finding per node</h2>\n";
  chart(r, page);
  page += "<h2 id=\"nodes\">Nodes, cause first (origin, waiter, other, clean), then skew-corrected time</h2>\n";
  nodes_table(r, page);
  skew_and_deviations(r, page);
  page += fmt::format("<footer>ascend-triage {}: offline fleet report; every text from the summaries is "
                      "shown as text, nothing in this page runs or loads anything.</footer>\n",
                      ASCEND_TRIAGE_VERSION);
  page += "</body>\n</html>\n";
  out << page;
}

}  // namespace triage::fleet
