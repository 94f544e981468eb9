// The timeline of the HTML report: an SVG with one lane per source on a UTC axis (a second
// axis row shows the host's local time), boots and the collection as vertical lines, the
// stall span as a bar, installs as diamonds, other events as dots (one occurrence) or bars
// (a collapsed row from first to last) coloured by severity. Hover text is SVG <title>; no
// script. When the incident is a small part of the whole range, a second panel zooms on it
// (reports/timeline_focus.h), with the installs and boots outside it named at its edges.
// Below: the measured clock skews and every event as a table.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "model/strings.h"
#include "model/timeline_lanes.h"
#include "model/time.h"
#include "reports/html_escape.h"
#include "reports/html_parts.h"
#include "reports/timeline_focus.h"

namespace triage::html {
namespace {

constexpr double kWidth = 1200, kLeft = 160, kRight = 1180;
constexpr double kAxisHeight = 40, kLaneHeight = 26, kFooterHeight = 18;
constexpr int64_t kSecond = 1000000;
constexpr size_t kMaxTableRows = 1000;


struct Range {
  int64_t lo = 0, hi = 0;
  double x(int64_t t) const {
    double f = static_cast<double>(t - lo) / static_cast<double>(hi - lo);
    return kLeft + std::clamp(f, 0.0, 1.0) * (kRight - kLeft);
  }
  bool overlaps(int64_t a, int64_t b) const { return b >= lo && a <= hi; }
};

std::vector<std::string> lanes_of(const Timeline& t) {
  std::set<std::string> present;
  for (const auto& e : t.events) present.insert(e.source.empty() ? "unknown" : e.source);
  std::vector<std::string> lanes;
  for (auto name : kTimelineLanes)  // the application's logs first, the host's below
    if (present.erase(std::string(name))) lanes.emplace_back(name);
  lanes.insert(lanes.end(), present.begin(), present.end());  // others, alphabetically
  return lanes;
}

// A tick step giving at most ~9 ticks over the span.
int64_t tick_step(int64_t span_us) {
  static constexpr int64_t kSteps[] = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600,
                                       7200, 10800, 21600, 43200, 86400, 2 * 86400, 7 * 86400,
                                       14 * 86400, 30 * 86400, 91 * 86400, 182 * 86400, 365 * 86400};
  for (int64_t s : kSteps)
    if (span_us / (s * kSecond) <= 9) return s * kSecond;
  return 730 * 86400 * kSecond;
}

std::string tick_label(int64_t utc_us, int64_t step, int offset_seconds) {
  CivilTime c = civil_from_utc_us(utc_us + int64_t{offset_seconds} * kSecond);
  if (step < 60 * kSecond) return fmt::format("{:02}:{:02}:{:02}", c.hour, c.minute, c.second);
  if (step < 86400 * kSecond) return fmt::format("{:02}-{:02} {:02}:{:02}", c.month, c.day, c.hour, c.minute);
  return fmt::format("{:04}-{:02}-{:02}", c.year, c.month, c.day);
}

std::string duration_text(int64_t us) {
  int64_t s = us / kSecond;
  if (s < 120) return fmt::format("{} s", s);
  if (s < 7200) return fmt::format("{} min", s / 60);
  if (s < 2 * 86400) return fmt::format("{:.1f} h", static_cast<double>(s) / 3600);
  return fmt::format("{:.1f} d", static_cast<double>(s) / 86400);
}

std::string event_title(const TimelineEvent& e) {
  std::string s = format_utc(e.first_utc_us);
  if (e.last_utc_us != e.first_utc_us) s += " to " + format_utc(e.last_utc_us);
  if (e.count > 1) s += fmt::format(" ({} times)", e.count);
  s += fmt::format(" [{}] {}", to_string(e.severity), e.kind);
  if (!e.host.empty()) s += " on " + e.host;
  s += ": " + e.message;
  if (!e.evidence.entry.empty()) s += fmt::format(" ({}:{})", e.evidence.entry, e.evidence.line);
  return escape(s);
}

struct Panel {
  const Report& report;
  const Timeline& t;
  const std::vector<std::string>& lanes;
  std::optional<int> offset;
};

void axis(const Panel& p, const Range& r, double bottom, std::string& out) {
  int64_t step = tick_step(r.hi - r.lo);
  int64_t first = r.lo >= 0 ? (r.lo + step - 1) / step * step : r.lo / step * step;
  out += fmt::format("<text class=\"tl-axis\" x=\"8\" y=\"16\">UTC</text>\n");
  if (p.offset)
    out += fmt::format("<text class=\"tl-axis local\" x=\"8\" y=\"32\">host local {}</text>\n", format_offset(*p.offset));
  for (int64_t t = first; t <= r.hi; t += step) {
    double x = r.x(t);
    out += fmt::format("<line class=\"tl-tick\" x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>\n", x, kAxisHeight - 4, x, bottom);
    out += fmt::format("<text class=\"tl-axis\" x=\"{:.1f}\" y=\"16\" text-anchor=\"middle\">{}</text>\n", x, tick_label(t, step, 0));
    if (p.offset)
      out += fmt::format("<text class=\"tl-axis local\" x=\"{:.1f}\" y=\"32\" text-anchor=\"middle\">{}</text>\n", x,
                         tick_label(t, step, *p.offset));
  }
}

void event_mark(const Panel& p, const TimelineEvent& e, const Range& r, double cy, std::string& out) {
  double x1 = r.x(e.first_utc_us), x2 = r.x(std::max(e.last_utc_us, e.first_utc_us));
  std::string sev(to_string(e.severity));
  std::optional<size_t> target;
  for (const auto& id : e.finding_ids)
    if ((target = finding_index(p.report, id))) break;
  if (target) out += fmt::format("<a href=\"#{}\">", anchor("f", *target));
  out += fmt::format("<g><title>{}</title>", event_title(e));
  if (is_stall_event(e)) {
    double w = std::max(x2 - x1, 4.0);
    out += fmt::format("<rect class=\"tl-stall\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{}\" rx=\"2\"/>",
                       x1, cy - kLaneHeight / 2 + 3, w, kLaneHeight - 6);
    std::string label = "stall " + duration_text(e.last_utc_us - e.first_utc_us);
    if (w > 8.0 * static_cast<double>(label.size()))
      out += fmt::format("<text class=\"tl-stall-label\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text>", x1 + 4, cy + 4, label);
  } else if (e.kind == "install") {
    if (x2 - x1 > 2)
      out += fmt::format("<rect class=\"tl-install\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"4\"/>", x1, cy - 2, x2 - x1);
    out += fmt::format("<polygon class=\"tl-install\" points=\"{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\"/>",
                       x1, cy - 7, x1 + 7, cy, x1, cy + 7, x1 - 7, cy);
  } else if (e.kind == "boot") {
    out += fmt::format("<polygon class=\"tl-ev info\" points=\"{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\"/>", x1, cy - 7,
                       x1 + 6, cy + 6, x1 - 6, cy + 6);
  } else if (x2 - x1 >= 2) {
    out += fmt::format("<rect class=\"tl-ev tl-span {}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"10\" rx=\"3\"/>",
                       sev, x1, cy - 5, x2 - x1);
  } else {
    out += fmt::format("<circle class=\"tl-ev {}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\"/>", sev, x1, cy,
                       e.severity >= Severity::error ? 5.5 : 4.5);
  }
  out += "</g>";
  if (target) out += "</a>";
  out += '\n';
}

// One SVG panel over [r.lo, r.hi]; returns how many events fell outside it.
size_t panel_svg(const Panel& p, const Range& r, std::string_view label, std::string& out) {
  double lanes_bottom = kAxisHeight + kLaneHeight * static_cast<double>(p.lanes.size());
  double height = lanes_bottom + kFooterHeight + 4;
  out += fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {:.0f}\" role=\"img\" "
                     "aria-label=\"{}\">\n",
                     kWidth, height, escape(label));
  std::map<std::string, size_t> lane_index;
  std::map<std::string, size_t> lane_count;
  for (const auto& e : p.t.events) ++lane_count[e.source.empty() ? "unknown" : e.source];
  for (size_t i = 0; i < p.lanes.size(); ++i) {
    lane_index[p.lanes[i]] = i;
    double y = kAxisHeight + kLaneHeight * static_cast<double>(i);
    out += fmt::format("<rect class=\"tl-lane{}\" x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", i % 2 ? " alt" : "", y,
                       kWidth, kLaneHeight);
    out += fmt::format("<g><title>{}</title><text class=\"tl-label\" x=\"8\" y=\"{}\">{} ({})</text></g>\n",
                       escape(p.lanes[i]), y + 17, escape(shorten_utf8(p.lanes[i], 14)), lane_count[p.lanes[i]]);
  }
  axis(p, r, lanes_bottom, out);
  double label_y = lanes_bottom + 14;
  for (const auto& b : p.t.boots) {
    if (!r.overlaps(b.start_utc_us, b.start_utc_us)) continue;
    double x = r.x(b.start_utc_us);
    std::string title = escape(fmt::format("{} {}{}{} at {}", b.after_previous ? "reboot:" : "boot:",
                                           b.boot_id.empty() ? "id unknown" : b.boot_id,
                                           b.host.empty() ? "" : " on ", b.host, format_utc(b.start_utc_us)));
    out += fmt::format("<g><title>{}</title><line class=\"{}\" x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>"
                       "<text class=\"tl-boot-label\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text></g>\n",
                       title, b.after_previous ? "tl-reboot" : "tl-boot", x, kAxisHeight, x, lanes_bottom, x - 3, label_y,
                       b.after_previous ? "reboot" : "boot");
  }
  if (p.t.collection_utc_us && r.overlaps(*p.t.collection_utc_us, *p.t.collection_utc_us)) {
    double x = r.x(*p.t.collection_utc_us);
    out += fmt::format("<g><title>collected at {}</title><line class=\"tl-collect\" x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" "
                       "y2=\"{:.1f}\"/><text class=\"tl-collect-label\" x=\"{:.1f}\" y=\"{:.1f}\">"
                       "collected</text></g>\n",
                       format_utc(*p.t.collection_utc_us), x, kAxisHeight, x, lanes_bottom, x + 3, label_y);
  }
  // Least severe first, so that errors are drawn on top of the info dots around them.
  std::vector<size_t> order(p.t.events.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    auto rank = [&](const TimelineEvent& e) { return is_stall_event(e) ? 99 : static_cast<int>(e.severity); };
    return rank(p.t.events[a]) < rank(p.t.events[b]);
  });
  size_t outside = 0;
  for (size_t i : order) {
    const TimelineEvent& e = p.t.events[i];
    if (!r.overlaps(e.first_utc_us, std::max(e.last_utc_us, e.first_utc_us))) {
      ++outside;
      continue;
    }
    size_t lane = lane_index[e.source.empty() ? "unknown" : e.source];
    event_mark(p, e, r, kAxisHeight + kLaneHeight * (static_cast<double>(lane) + 0.5), out);
  }
  out += "</svg>\n";
  return outside;
}

// The whole span of the timeline, padded; nullopt when nothing in it carries a time.
std::optional<Range> full_range(const Timeline& t) {
  std::optional<int64_t> lo, hi;
  auto take = [&](int64_t a, int64_t b) {
    lo = lo ? std::min(*lo, a) : a;
    hi = hi ? std::max(*hi, b) : b;
  };
  for (const auto& e : t.events) take(e.first_utc_us, std::max(e.first_utc_us, e.last_utc_us));
  for (const auto& b : t.boots) take(b.start_utc_us, b.start_utc_us);
  if (t.collection_utc_us) take(*t.collection_utc_us, *t.collection_utc_us);
  if (!lo) return std::nullopt;
  int64_t pad = std::max<int64_t>((*hi - *lo) / 50, 30 * kSecond);
  return Range{*lo - pad, *hi + pad};
}

// Installs and boots outside the incident window, drawn at its edges with their time.
void edge_markers(const FocusWindow& w, std::string& out) {
  auto one = [&](const FocusMarker& m, size_t i, bool left) {
    double x = left ? kLeft + 2 : kRight - 2;
    double y = kAxisHeight + 12 + 14 * static_cast<double>(i);
    std::string text = fmt::format("{} {} {}", left ? "\u25c0" : "", format_utc(m.utc_us), m.label);
    if (!left) text = fmt::format("{} {} \u25b6", m.label, format_utc(m.utc_us));
    out += fmt::format("<g class=\"tl-edge\"><title>{}</title><text class=\"tl-edge-label\" x=\"{:.1f}\" y=\"{:.1f}\" "
                       "text-anchor=\"{}\">{}</text></g>\n",
                       escape(m.label + " at " + format_utc(m.utc_us)), x, y, left ? "start" : "end", escape(text));
  };
  for (size_t i = 0; i < w.before.size(); ++i) one(w.before[i], i, true);
  for (size_t i = 0; i < w.after.size(); ++i) one(w.after[i], i, false);
}

void legend(std::string& out) {
  out += "<p class=\"legend\"><span><i class=\"info\"></i>info</span><span><i class=\"warning\"></i>warning</span>"
         "<span><i class=\"error\"></i>error</span><span><i class=\"critical\"></i>critical</span>"
         "<span><i class=\"stall\"></i>stall span</span><span><i class=\"install\"></i>install</span>"
         "<span><i class=\"boot\"></i>boot / reboot</span><span><i class=\"collect\"></i>collection</span>"
         "<span>dot = one line, bar = repeats from first to last</span></p>\n";
}

void skews_table(const Timeline& t, std::string& out) {
  if (t.skews.empty()) return;
  out += "<h3>Clock skew between sources</h3>\n<table>\n<tr><th>host</th><th>sources</th><th>b &minus; a</th>"
         "<th>pairs</th><th>method</th><th>one pair</th></tr>\n";
  for (const auto& s : t.skews) {
    auto where = [](const EvidenceRef& e) {
      return e.entry.empty() ? std::string("-") : fmt::format("{}:{}", escape(e.entry), e.line);
    };
    out += fmt::format("<tr><td>{}</td><td class=\"mono\">{} vs {}</td><td>{:+.3f} s</td><td>{}</td><td>{}</td>"
                       "<td class=\"mono\">{} / {}</td></tr>\n",
                       escape(s.host), escape(s.source_a), escape(s.source_b), s.b_minus_a_seconds, s.pairs,
                       escape(s.method), where(s.a_evidence), where(s.b_evidence));
  }
  out += "</table>\n<p class=\"muted\">Measured, not applied: every event keeps the time its source gives.</p>\n";
}

void events_table(const Panel& p, std::string& out) {
  const auto& events = p.t.events;
  out += fmt::format("<details><summary>All timeline events ({})</summary>\n<table>\n<tr><th>UTC</th><th>host local</th>"
                     "<th>source</th><th>kind</th><th>severity</th><th>count</th><th>message</th><th>evidence</th></tr>\n",
                     events.size());
  for (size_t i = 0; i < events.size() && i < kMaxTableRows; ++i) {
    const TimelineEvent& e = events[i];
    std::optional<int> off = e.local_offset_seconds ? e.local_offset_seconds : p.offset;
    std::string utc = format_utc(e.first_utc_us);
    if (e.last_utc_us != e.first_utc_us) utc += " &rarr; " + format_utc(e.last_utc_us);
    std::string note = e.time_note.empty() ? "" : " <span class=\"muted\">(" + escape(e.time_note) + ")</span>";
    std::string links;
    for (const auto& id : e.finding_ids) {
      auto idx = finding_index(p.report, id);
      links += idx ? fmt::format(" <a href=\"#{}\">{}</a>", anchor("f", *idx), escape(id)) : fmt::format(" {}", escape(id));
    }
    out += fmt::format("<tr class=\"{}\"><td class=\"mono\">{}{}</td><td class=\"mono\">{}</td><td>{}</td><td class=\"mono\">{}</td>"
                       "<td><span class=\"badge\">{}</span></td><td>{}</td><td class=\"msg\">{}{}</td>"
                       "<td class=\"mono\">{}{}</td></tr>\n",
                       severity_class(e.severity), utc, note, off ? format_with_offset(e.first_utc_us, *off) : "unknown",
                       escape(e.source), escape(e.kind), to_string(e.severity), e.count, escape(e.message),
                       links.empty() ? "" : "<br>findings:" + links, escape(e.evidence.entry),
                       e.evidence.line ? fmt::format(":{}", e.evidence.line) : "");
  }
  out += "</table>\n";
  if (events.size() > kMaxTableRows)
    out += fmt::format("<p class=\"muted\">... and {} more (--format json or jsonl lists all)</p>\n",
                       events.size() - kMaxTableRows);
  out += "</details>\n";
}

}  // namespace

void timeline_section(const Report& report, std::optional<int> host_offset, std::string& out) {
  const Timeline& t = report.timeline;
  out += "<h2 id=\"timeline\">Timeline</h2>\n<section class=\"timeline\">\n";
  std::optional<Range> full = full_range(t);
  if (!full) {
    out += fmt::format("<p class=\"muted\">No dated events{}.</p>\n",
                       t.undated ? fmt::format(" ({} line(s) that would be events carry no usable time)", t.undated) : "");
    out += "</section>\n";
    return;
  }
  // The axis shows the host's local time beside UTC: the events' own offset, else the bundle's.
  std::set<int> offsets;
  for (const auto& e : t.events)
    if (e.local_offset_seconds) offsets.insert(*e.local_offset_seconds);
  std::optional<int> offset = offsets.empty() ? host_offset : std::optional<int>(*offsets.begin());
  std::vector<std::string> lanes = lanes_of(t);
  Panel p{report, t, lanes, offset};
  std::string note = offset ? fmt::format("; second row: the host's local time (UTC{})", format_offset(*offset))
                            : "; the host's local zone is unknown";
  if (offsets.size() > 1) note += "; the host's offset varies over the range (DST or several hosts): the table shows each";
  out += fmt::format("<p class=\"sub\">{} event row(s) in {} lane(s), {} boot(s). Axis in UTC{}.</p>\n", t.events.size(),
                     lanes.size(), t.boots.size(), note);
  panel_svg(p, *full, "timeline of the whole evidence", out);
  if (auto w = focus_window(t)) {
    out += fmt::format("<h3>Incident window: {} to {} UTC</h3>\n<p class=\"sub\">{}.</p>\n", format_utc(w->lo),
                       format_utc(w->hi), escape(w->why));
    Range focus{w->lo, w->hi};
    std::string panel;
    size_t outside = panel_svg(p, focus, "timeline of the incident window", panel);
    std::string edges;
    edge_markers(*w, edges);
    panel.insert(panel.rfind("</svg>"), edges);
    out += panel;
    if (outside) out += fmt::format("<p class=\"muted\">{} event row(s) lie outside this window.</p>\n", outside);
  }
  legend(out);
  if (t.filtered_out || t.undated)
    out += fmt::format("<p class=\"muted\">{} event(s) removed by the filter, {} line(s) without a usable time.</p>\n",
                       t.filtered_out, t.undated);
  skews_table(t, out);
  events_table(p, out);
  out += "</section>\n";
}

}  // namespace triage::html
