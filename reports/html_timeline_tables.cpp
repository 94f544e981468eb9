// The tables under the HTML timeline: the measured clock skews between sources and every
// event (at most kMaxTableRows; the JSON formats list all), collapsed under <details>.
#include <fmt/format.h>

#include "model/time.h"
#include "reports/html_escape.h"
#include "reports/html_parts.h"

namespace triage::html {
namespace {

constexpr size_t kMaxTableRows = 1000;

}  // namespace

void timeline_skews_table(const Timeline& t, std::string& out) {
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

void timeline_events_table(const Report& report, std::optional<int> offset, std::string& out) {
  const auto& events = report.timeline.events;
  out += fmt::format("<details><summary>All timeline events ({})</summary>\n<table>\n<tr><th>UTC</th><th>host local</th>"
                     "<th>source</th><th>kind</th><th>severity</th><th>count</th><th>message</th><th>evidence</th></tr>\n",
                     events.size());
  for (size_t i = 0; i < events.size() && i < kMaxTableRows; ++i) {
    const TimelineEvent& e = events[i];
    std::optional<int> off = e.local_offset_seconds ? e.local_offset_seconds : offset;
    std::string utc = format_utc(e.first_utc_us);
    if (e.last_utc_us != e.first_utc_us) utc += " &rarr; " + format_utc(e.last_utc_us);
    std::string note = e.time_note.empty() ? "" : " <span class=\"muted\">(" + escape(e.time_note) + ")</span>";
    std::string links;
    for (const auto& id : e.finding_ids) {
      auto idx = finding_index(report, id);
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

}  // namespace triage::html
