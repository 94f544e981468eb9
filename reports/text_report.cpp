// `analyze --format text`: the verdict first, then what the bundle is, then every finding with
// its evidence and limits, then the top of the timeline. Readable at RenderOptions::width
// columns (display columns: CJK counts 2); commands and paths are never broken.
#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "model/bundle_summary.h"
#include "model/time.h"
#include "reports/timeline_focus.h"
#include "reports/display_width.h"
#include "reports/also_read_as.h"
#include "reports/render.h"
#include "reports/text_sections.h"

namespace triage {
namespace text {
namespace {

constexpr size_t kMaxEvidence = 8;      // per finding; JSON has them all
constexpr size_t kTimelineRows = 12;    // the full timeline is the `timeline` command's
constexpr std::string_view kBlock = "   ";  // under "F1 "

void append_next_checks(std::string& out, const Finding& f, const Layout& layout) {
  std::string first = std::string(kBlock) + "Next checks:";
  first += pad_to(first, kBlock.size() + kLabelColumns);
  std::string hanging(kBlock.size() + kLabelColumns, ' ');
  for (const auto& check : f.next_checks) {
    auto [prose, command] = split_command(check);
    if (!prose.empty()) {
      append_wrapped(out, prose, first + "- ", hanging + "  ", layout.width);
      if (!command.empty()) append_command(out, command, hanging + "  ", layout.style, layout.width);
    } else {
      append_command(out, command, first + "- ", layout.style, layout.width);
    }
    first = hanging;
  }
}

void append_evidence(std::string& out, const std::vector<EvidenceRef>& lines, std::string_view label,
                     const Layout& layout) {
  if (lines.empty()) return;
  std::string first = std::string(kBlock) + std::string(label);
  first += pad_to(first, kBlock.size() + kLabelColumns);
  std::string hanging(kBlock.size() + kLabelColumns, ' ');
  size_t max = layout.full ? lines.size() : kMaxEvidence;
  for (size_t i = 0; i < lines.size() && i < max; ++i) {
    const EvidenceRef& e = lines[i];
    // entry:line on a line of its own: a path is never wrapped, the excerpt is, below it. It
    // keeps the input's path: it is the address `ascend-triage show` takes, pasted back.
    out += first;
    out += layout.style.dim(printable_utf8(e.line ? fmt::format("{}:{}", e.entry, e.line) : e.entry));
    out += '\n';
    if (!e.excerpt.empty())
      append_wrapped(out, e.excerpt, hanging + "  ", hanging + "    ", layout.width, WrapMode::log_line);
    first = hanging;
  }
  if (lines.size() > max)
    out += fmt::format("{}... and {} more (--full or --format json lists all)\n", hanging, lines.size() - max);
}

void append_finding(std::string& out, size_t number, const Finding& f, const Layout& layout) {
  const Style& st = layout.style;
  std::string head = fmt::format("F{} {} {} ", number,
                                 st.severity(f.severity, fmt::format("[{}]", to_string(f.severity))),
                                 st.bold(printable_utf8(f.id)));
  std::string rest = fmt::format("({} confidence)", to_string(f.confidence));
  if (!f.host.empty()) rest += " - host " + f.host;
  append_wrapped(out, rest, head, kBlock, layout.width);
  if (!f.title.empty()) append_wrapped(out, f.title, kBlock, kBlock, layout.width);
  if (!f.observed.empty()) append_labelled(out, kBlock, "Observed:", f.observed, layout);
  // Issue 36: codes, pids and ids of the lines it accounts for that its words do not name.
  if (const std::string* facts = f.find_value("facts")) append_labelled(out, kBlock, "Facts:", *facts, layout);
  if (!f.supports.empty()) append_labelled(out, kBlock, "Supports:", f.supports, layout);
  if (!f.does_not_prove.empty()) append_labelled(out, kBlock, "Does not prove:", f.does_not_prove, layout);
  if (f.find_value(kAlsoReadAsValue)) {  // other findings of the same event, folded into this one
    std::string also;
    for (const auto& a : also_read_as_by_id(f)) also += (also.empty() ? "" : "; ") + also_read_as_text(a);
    append_labelled(out, kBlock, "Also read as:", also, layout);
  }
  append_next_checks(out, f, layout);
  append_evidence(out, f.evidence, "Evidence:", layout);
  // Lines of the same failure from another layer: read and accounted for, not cited.
  append_evidence(out, f.same_failure, "Explains:", layout);
}

}  // namespace

std::string utc_seconds(int64_t utc_us) {
  int64_t s = utc_us >= 0 ? utc_us / 1000000 : -((-utc_us + 999999) / 1000000);
  return format_utc(s * 1000000);
}

std::string local_clock(const TimelineEvent& e) {
  if (!e.local_offset_seconds) return "local ?";
  int64_t s = e.first_utc_us >= 0 ? e.first_utc_us / 1000000 : -((-e.first_utc_us + 999999) / 1000000);
  std::string t = format_with_offset(s * 1000000, *e.local_offset_seconds);  // 2026-..T09:25:58+08:00
  size_t tpos = t.find('T');
  return tpos == std::string::npos ? t : t.substr(tpos + 1);
}

std::vector<size_t> top_timeline_rows(const Timeline& timeline, size_t max) {
  std::vector<size_t> rows(timeline.events.size());
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = i;
  // Most severe first; among equals, rows that are a finding's evidence, then rows a parser
  // recognised (signature, error code, ...) before plain warning/error lines, then time.
  auto rank = [&](size_t i) {
    const TimelineEvent& e = timeline.events[i];
    return std::make_tuple(static_cast<int>(e.severity), !e.finding_ids.empty(), e.kind != "log-line");
  };
  std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) { return rank(a) > rank(b); });
  if (rows.size() > max) rows.resize(max);
  std::sort(rows.begin(), rows.end());
  return rows;
}

void append_findings(std::string& out, const Report& report, const Layout& layout) {
  out += layout.style.bold(fmt::format("{} finding(s)", report.findings.size()));
  out += '\n';
  for (size_t i = 0; i < report.findings.size(); ++i) {
    out += '\n';
    append_finding(out, i + 1, report.findings[i], layout);
  }
}

void append_timeline_top(std::string& out, const Timeline& timeline, const Layout& layout) {
  const Style& st = layout.style;
  std::vector<size_t> rows = top_timeline_rows(timeline, kTimelineRows);
  std::string title = fmt::format("{} event(s)", timeline.events.size());
  if (rows.size() < timeline.events.size())
    title += fmt::format(", the {} most severe shown (the timeline command shows all)", rows.size());
  append_wrapped(out, title, st.bold("Timeline:") + " ", "  ", layout.width);
  if (auto w = focus_window(timeline))
    append_wrapped(out, fmt::format("Incident window: {} to {} ({})", utc_seconds(w->lo), utc_seconds(w->hi), w->why),
                   "  ", "    ", layout.width);
  if (timeline.filtered_out || timeline.undated)
    append_wrapped(out, fmt::format("{} filtered out, {} undated", timeline.filtered_out, timeline.undated),
                   "  ", "  ", layout.width);
  for (size_t r : rows) {
    const TimelineEvent& e = timeline.events[r];
    std::string head = fmt::format("  {}  {}  ", utc_seconds(e.first_utc_us), local_clock(e));
    std::string rest = fmt::format("{}  {}", e.source, to_string(e.severity));
    if (e.count > 1) rest += fmt::format("  x{} until {}", e.count, utc_seconds(e.last_utc_us));
    size_t start = out.size();
    append_wrapped(out, rest, head, "      ", layout.width);
    // Colour the severity word after wrapping (styling inside the wrapped text would be escaped).
    std::string_view sev = to_string(e.severity);
    size_t at = out.find(fmt::format("  {}", sev), start + head.size());
    if (st.color() && at != std::string::npos) out.replace(at + 2, sev.size(), st.severity(e.severity, sev));
    append_wrapped(out, e.message, "      ", "        ", layout.width);
  }
  for (const ClockSkew& k : timeline.skews)
    append_wrapped(out,
                   fmt::format("clock skew {} vs {}{}: {:+.3f} s over {} pair(s) ({})", k.source_b, k.source_a,
                               k.host.empty() ? "" : " on " + k.host, k.b_minus_a_seconds, k.pairs, k.method),
                   "  ", "    ", layout.width);
}

}  // namespace text

void render_text(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                 std::ostream& out) {
  text::Layout layout{text::Style(opt.color), static_cast<size_t>(std::max(opt.width, 40)), opt.full};
  std::string s;
  if (!opt.redaction_note.empty()) text::append_wrapped(s, opt.redaction_note, "", "", layout.width);
  if (!opt.redaction_note.empty()) s += '\n';
  text::append_verdict(s, report, layout);
  s += '\n';
  for (size_t i = 0; i < evidence.bundles.size() && i < report.bundles.size(); ++i) {
    text::append_bundle_summary(s, report.bundles[i], evidence.bundles[i], layout);
    s += '\n';
  }
  text::append_findings(s, report, layout);
  if (!report.timeline.events.empty()) {
    s += '\n';
    text::append_timeline_top(s, report.timeline, layout);
  }
  out << s;
}

}  // namespace triage
