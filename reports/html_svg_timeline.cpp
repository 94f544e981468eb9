// The timeline of the HTML report: an SVG on a UTC axis (a second axis row shows the host's
// local time) with one lane per rank or device where events have one, else per source
// (reports/timeline_lane_keys.h); a mark's colour is its source, its outline its severity.
// Boots and the collection are vertical lines, the stall span a bar, installs diamonds, other
// events dots (one occurrence) or bars (a collapsed row from first to last). Hover text is
// SVG <title>; no script. Labels never overlap (reports/svg_labels.h). When the incident is a
// small part of the whole range, a second panel zooms on it (reports/timeline_focus.h), with
// only the lanes that have events in it and the installs and boots outside it named at its
// edges. Below: the measured clock skews and every event as a table.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "model/strings.h"
#include "model/timeline_lanes.h"
#include "model/time.h"
#include "reports/html_escape.h"
#include "reports/html_parts.h"
#include "reports/svg_labels.h"
#include "reports/timeline_focus.h"
#include "reports/timeline_lane_keys.h"

namespace triage::html {
namespace {

constexpr double kWidth = 1200, kLeft = 160, kRight = 1180;
constexpr double kAxisHeight = 40, kLaneHeight = 26, kFooterHeight = 18;
constexpr int64_t kSecond = 1000000;
constexpr TextStyle kLaneText{12, true, false}, kAxisText{11, false, false}, kBoldText{11, false, true},
    kEdgeText{10, false, false}, kCollectText{11, false, false};
constexpr double kLabelRow = 16;  // between stacked 11 px labels (their boxes are < 15.7 px)
struct Range {
  int64_t lo = 0, hi = 0;
  double x(int64_t t) const {
    double f = static_cast<double>(t - lo) / static_cast<double>(hi - lo);
    return kLeft + std::clamp(f, 0.0, 1.0) * (kRight - kLeft);
  }
  bool overlaps(int64_t a, int64_t b) const { return b >= lo && a <= hi; }
};


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

std::string source_class(const TimelineEvent& e) {
  return fmt::format("src-{}", source_index(e.source.empty() ? "unknown" : e.source));
}

struct Panel {
  const Report& report;
  const Timeline& t;
  const TimelineLanes& lanes;
  std::optional<int> offset;
};

// Where each label of one panel goes; decided before anything is drawn, most important first.
struct Labels {
  LabelPlacer placer;
  struct AxisLabel {
    double x;
    std::string text;
    bool centred;
  };
  std::vector<AxisLabel> axis[2];  // per row: UTC, host local
  std::map<size_t, double> stall;                      // event index -> baseline
  std::vector<std::optional<double>> boots;             // per boot: baseline of its label
  std::optional<double> collect;
  bool collect_left = false;
};

// The lane's label, shortened until it fits left of the axis: "rank 7 dev 1 (12)".
std::string lane_label(const TimelineLane& lane, size_t count) {
  std::string count_text = fmt::format(" ({})", count);
  std::string name = lane.host.empty() ? lane.label : lane.host + " " + lane.label;
  for (size_t max = name.size(); max >= 4; --max) {
    std::string text = (max == name.size() ? name : shorten_utf8(name, max)) + count_text;
    if (text_width(text, kLaneText) <= kLeft - 14) return text;
  }
  return shorten_utf8(name, 4);
}

void place_axis(const Panel& p, const Range& r, Labels& l) {
  auto put = [&](int row, double x, std::string text, Anchor a) {
    double y = row ? 32 : 16;
    if (l.placer.place(text, kAxisText, x, y, a)) l.axis[row].push_back({x, std::move(text), a == Anchor::middle});
  };
  put(0, 8, "UTC", Anchor::start);
  if (p.offset) put(1, 8, "host local " + format_offset(*p.offset), Anchor::start);
  int64_t step = tick_step(r.hi - r.lo);
  int64_t first = r.lo >= 0 ? (r.lo + step - 1) / step * step : r.lo / step * step;
  for (int64_t t = first; t <= r.hi; t += step) {
    put(0, r.x(t), tick_label(t, step, 0), Anchor::middle);
    if (p.offset) put(1, r.x(t), tick_label(t, step, *p.offset), Anchor::middle);
  }
}

void axis(const Range& r, const Labels& l, double bottom, std::string& out) {
  int64_t step = tick_step(r.hi - r.lo);
  int64_t first = r.lo >= 0 ? (r.lo + step - 1) / step * step : r.lo / step * step;
  for (int64_t t = first; t <= r.hi; t += step)
    out += fmt::format("<line class=\"tl-tick\" x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>\n", r.x(t),
                       kAxisHeight - 4, r.x(t), bottom);
  for (int row = 0; row < 2; ++row)
    for (const auto& a : l.axis[row])
      out += fmt::format("<text class=\"tl-axis{}\" x=\"{:.1f}\" y=\"{}\"{}>{}</text>\n", row ? " local" : "", a.x,
                         row ? 32 : 16, a.centred ? " text-anchor=\"middle\"" : "", escape(a.text));
}

std::string stall_text(const TimelineEvent& e) { return "stall " + duration_text(e.last_utc_us - e.first_utc_us); }

void event_mark(const Panel& p, size_t index, const Range& r, double cy, const Labels& l, std::string& out) {
  const TimelineEvent& e = p.t.events[index];
  double x1 = r.x(e.first_utc_us), x2 = r.x(std::max(e.last_utc_us, e.first_utc_us));
  std::string sev(to_string(e.severity));
  std::optional<size_t> target;
  for (const auto& id : e.finding_ids)
    if ((target = finding_index(p.report, id))) break;
  if (target) out += fmt::format("<a href=\"#{}\">", anchor("f", *target));
  out += fmt::format("<g><title>{}</title>", event_title(e));
  if (is_stall_event(e)) {
    out += fmt::format("<rect class=\"tl-stall\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{}\" rx=\"2\"/>",
                       x1, cy - kLaneHeight / 2 + 3, std::max(x2 - x1, 4.0), kLaneHeight - 6);
    if (auto y = l.stall.find(index); y != l.stall.end())
      out += fmt::format("<text class=\"tl-stall-label\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text>", x1 + 4, y->second,
                         stall_text(e));
  } else if (e.kind == "install") {
    if (x2 - x1 > 2)
      out += fmt::format("<rect class=\"tl-install\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"4\"/>", x1, cy - 2, x2 - x1);
    out += fmt::format("<polygon class=\"tl-install\" points=\"{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\"/>",
                       x1, cy - 7, x1 + 7, cy, x1, cy + 7, x1 - 7, cy);
  } else if (e.kind == "boot") {
    out += fmt::format("<polygon class=\"tl-ev info {}\" points=\"{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\"/>",
                       source_class(e), x1, cy - 7, x1 + 6, cy + 6, x1 - 6, cy + 6);
  } else if (x2 - x1 >= 2) {
    out += fmt::format("<rect class=\"tl-ev tl-span {} {}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"10\" rx=\"3\"/>",
                       sev, source_class(e), x1, cy - 5, x2 - x1);
  } else {
    out += fmt::format("<circle class=\"tl-ev {} {}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\"/>", sev, source_class(e), x1, cy,
                       e.severity >= Severity::error ? 5.5 : 4.5);
  }
  out += "</g>";
  if (target) out += "</a>";
  out += '\n';
}

std::string edge_text(const FocusMarker& m, bool left) {
  return left ? fmt::format("\u25c0 {} {}", format_utc(m.utc_us), m.label)
              : fmt::format("{} {} \u25b6", m.label, format_utc(m.utc_us));
}

// Installs and boots outside the incident window, named at its edges with their time, under
// the lanes (never over a mark); each on the first row where it overlaps no other label.
void edge_markers(const FocusWindow& w, double lanes_bottom, Labels& l, std::string& out) {
  auto one = [&](const FocusMarker& m, bool left) {
    std::string text = edge_text(m, left);
    double x = left ? kLeft + 2 : kRight - 2;
    std::optional<double> y = l.placer.place(text, kEdgeText, x, lanes_bottom + 13, left ? Anchor::start : Anchor::end,
                                             15, 12);
    if (!y) return;
    out += fmt::format("<g class=\"tl-edge\"><title>{}</title><text class=\"tl-edge-label\" x=\"{:.1f}\" y=\"{:.1f}\" "
                       "text-anchor=\"{}\">{}</text></g>\n",
                       escape(m.label + " at " + format_utc(m.utc_us)), x, *y, left ? "start" : "end", escape(text));
  };
  for (const auto& m : w.before) one(m, true);
  for (const auto& m : w.after) one(m, false);
}

// The labels of boots, reboots and the collection, under the lanes: up to three rows.
void place_footer(const Panel& p, const Range& r, double lanes_bottom, Labels& l) {
  double y = lanes_bottom + 14;
  l.boots.resize(p.t.boots.size());
  for (size_t i = 0; i < p.t.boots.size(); ++i) {
    const BootMark& b = p.t.boots[i];
    if (!r.overlaps(b.start_utc_us, b.start_utc_us)) continue;
    l.boots[i] = l.placer.place(b.after_previous ? "reboot" : "boot", kBoldText, r.x(b.start_utc_us) - 3, y,
                                Anchor::end, kLabelRow, 3);
  }
  if (!p.t.collection_utc_us || !r.overlaps(*p.t.collection_utc_us, *p.t.collection_utc_us)) return;
  double x = r.x(*p.t.collection_utc_us);
  l.collect_left = x + 3 + text_width("collected", kCollectText) > kWidth;
  l.collect = l.placer.place("collected", kCollectText, l.collect_left ? x - 3 : x + 3, y,
                             l.collect_left ? Anchor::end : Anchor::start, kLabelRow, 3);
}

void boots_and_collection(const Panel& p, const Range& r, const Labels& l, double lanes_bottom, std::string& out) {
  for (size_t i = 0; i < p.t.boots.size(); ++i) {
    const BootMark& b = p.t.boots[i];
    if (!r.overlaps(b.start_utc_us, b.start_utc_us)) continue;
    double x = r.x(b.start_utc_us);
    std::string title = escape(fmt::format("{} {}{}{} at {}", b.after_previous ? "reboot:" : "boot:",
                                           b.boot_id.empty() ? "id unknown" : b.boot_id,
                                           b.host.empty() ? "" : " on ", b.host, format_utc(b.start_utc_us)));
    out += fmt::format("<g><title>{}</title><line class=\"{}\" x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>", title,
                       b.after_previous ? "tl-reboot" : "tl-boot", x, kAxisHeight, x, lanes_bottom);
    if (l.boots[i])
      out += fmt::format("<text class=\"tl-boot-label\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>", x - 3,
                         *l.boots[i], b.after_previous ? "reboot" : "boot");
    out += "</g>\n";
  }
  if (!p.t.collection_utc_us || !r.overlaps(*p.t.collection_utc_us, *p.t.collection_utc_us)) return;
  double x = r.x(*p.t.collection_utc_us);
  out += fmt::format("<g><title>collected at {}</title><line class=\"tl-collect\" x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" "
                     "y2=\"{:.1f}\"/>",
                     format_utc(*p.t.collection_utc_us), x, kAxisHeight, x, lanes_bottom);
  if (l.collect)
    out += fmt::format("<text class=\"tl-collect-label\" x=\"{:.1f}\" y=\"{:.1f}\"{}>collected</text>",
                       l.collect_left ? x - 3 : x + 3, *l.collect, l.collect_left ? " text-anchor=\"end\"" : "");
  out += "</g>\n";
}

// One SVG panel over [r.lo, r.hi]; with `focus`, only the lanes that have an event in it,
// and the installs and boots outside it named at its edges, under the lanes. Returns how many events fell
// outside it.
size_t panel_svg(const Panel& p, const Range& r, std::string_view label, const FocusWindow* focus, std::string& out) {
  const auto& events = p.t.events;
  const auto& lanes = p.lanes.lanes;
  auto inside = [&](const TimelineEvent& e) { return r.overlaps(e.first_utc_us, std::max(e.last_utc_us, e.first_utc_us)); };
  std::vector<size_t> count(lanes.size(), 0);
  size_t outside = 0;
  for (size_t i = 0; i < events.size(); ++i) inside(events[i]) ? ++count[p.lanes.of_event[i]] : ++outside;
  std::vector<std::optional<size_t>> row(lanes.size());
  size_t rows = 0;
  for (size_t k = 0; k < lanes.size(); ++k)
    if (!focus || count[k]) row[k] = rows++;
  auto lane_y = [&](size_t k) { return kAxisHeight + kLaneHeight * static_cast<double>(*row[k]); };
  double lanes_bottom = kAxisHeight + kLaneHeight * static_cast<double>(rows);

  Labels l;
  std::string body;
  for (size_t k = 0; k < lanes.size(); ++k) {
    if (!row[k]) continue;
    double y = lane_y(k);
    std::string text = lane_label(lanes[k], count[k]);
    l.placer.place(text, kLaneText, 8, y + 17, Anchor::start);  // rows apart: always free
    body += fmt::format("<rect class=\"tl-lane{}\" x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", *row[k] % 2 ? " alt" : "",
                        y, kWidth, kLaneHeight);
    body += fmt::format("<g><title>{}</title><text class=\"tl-label\" x=\"8\" y=\"{}\">{}</text></g>\n",
                        escape(lanes[k].title), y + 17, escape(text));
  }
  place_axis(p, r, l);
  for (size_t i = 0; i < events.size(); ++i) {
    const TimelineEvent& e = events[i];
    if (!is_stall_event(e) || !inside(e) || !row[p.lanes.of_event[i]]) continue;
    double x1 = r.x(e.first_utc_us), w = std::max(r.x(e.last_utc_us) - x1, 4.0);
    if (text_width(stall_text(e), kBoldText) + 8 > w) continue;
    double cy = lane_y(p.lanes.of_event[i]) + kLaneHeight / 2;
    if (auto y = l.placer.place(stall_text(e), kBoldText, x1 + 4, cy + 4, Anchor::start)) l.stall[i] = *y;
  }
  place_footer(p, r, lanes_bottom, l);
  std::string edges;
  if (focus) edge_markers(*focus, lanes_bottom, l, edges);

  axis(r, l, lanes_bottom, body);
  boots_and_collection(p, r, l, lanes_bottom, body);
  // Least severe first, so that errors are drawn on top of the info dots around them.
  std::vector<size_t> order(events.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    auto rank = [&](const TimelineEvent& e) { return is_stall_event(e) ? 99 : static_cast<int>(e.severity); };
    return rank(events[a]) < rank(events[b]);
  });
  for (size_t i : order)
    if (inside(events[i]))
      event_mark(p, i, r, lane_y(p.lanes.of_event[i]) + kLaneHeight / 2, l, body);
  body += edges;
  double height = std::max(lanes_bottom + kFooterHeight + 4, l.placer.lowest() + 4);
  out += fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {:.0f}\" role=\"img\" "
                     "aria-label=\"{}\">\n",
                     kWidth, height, escape(label));
  out += body;
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

// The colours of the sources on this timeline, then the outlines and the other marks.
void legend(const Timeline& t, std::string& out) {
  std::map<size_t, std::string> sources;
  for (const auto& e : t.events)
    if (e.kind != "install" && !is_stall_event(e)) {
      std::string s = e.source.empty() ? "unknown" : e.source;
      size_t i = source_index(s);
      sources.emplace(i, i < kTimelineLanes.size() ? s : std::string("other"));
    }
  out += "<p class=\"legend\">";
  for (const auto& [i, name] : sources)
    out += fmt::format("<span><i class=\"src-{}\"></i>{}</span>", i, escape(name));
  out += "<span>colour = log source; outline = severity:</span><span><i class=\"ring warning\"></i>warning</span>"
         "<span><i class=\"ring error\"></i>error</span><span><i class=\"ring critical\"></i>critical</span>"
         "<span><i class=\"stall\"></i>stall span</span><span><i class=\"install\"></i>install</span>"
         "<span><i class=\"boot\"></i>boot / reboot</span><span><i class=\"collect\"></i>collection</span>"
         "<span>dot = one line, bar = repeats from first to last</span></p>\n";
}

}  // namespace

void timeline_section(const Report& report, std::optional<int> host_offset, const RanksByProcess& ranks,
                      std::string& out) {
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
  TimelineLanes lanes = assign_lanes(t, ranks);
  Panel p{report, t, lanes, offset};
  std::string note = offset ? fmt::format("; second row: the host's local time (UTC{})", format_offset(*offset))
                            : "; the host's local zone is unknown";
  if (offsets.size() > 1) note += "; the host's offset varies over the range (DST or several hosts): the table shows each";
  size_t by_source = 0;
  for (const auto& lane : lanes.lanes) by_source += lane.by_source;
  out += fmt::format("<p class=\"sub\">{} event row(s) in {} lane(s): {} by rank or device, {} by source; {} boot(s). "
                     "Axis in UTC{}.</p>\n",
                     t.events.size(), lanes.lanes.size(), lanes.lanes.size() - by_source, by_source, t.boots.size(), note);
  panel_svg(p, *full, "timeline of the whole evidence", nullptr, out);
  if (auto w = focus_window(t)) {
    out += fmt::format("<h3>Incident window: {} to {} UTC</h3>\n<p class=\"sub\">{}; lanes without an event in it are "
                       "left out.</p>\n",
                       format_utc(w->lo), format_utc(w->hi), escape(w->why));
    size_t outside = panel_svg(p, Range{w->lo, w->hi}, "timeline of the incident window", &*w, out);
    if (outside) out += fmt::format("<p class=\"muted\">{} event row(s) lie outside this window.</p>\n", outside);
  }
  legend(t, out);
  if (t.filtered_out || t.undated)
    out += fmt::format("<p class=\"muted\">{} event(s) removed by the filter, {} line(s) without a usable time.</p>\n",
                       t.filtered_out, t.undated);
  timeline_skews_table(t, out);
  timeline_events_table(report, offset, out);
  out += "</section>\n";
}

}  // namespace triage::html
