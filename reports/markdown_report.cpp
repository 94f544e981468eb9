// `analyze --format md`: a report to paste into a ticket. The verdict first, then the bundle,
// then each finding with its evidence as quoted excerpts under `entry:line`, then a table of
// the most severe timeline events. Every string from a bundle goes through reports/markdown_escape.h.
#include <fmt/format.h>

#include <iterator>

#include "model/bundle_summary.h"
#include "model/strings.h"
#include "model/time.h"
#include "reports/timeline_focus.h"
#include "reports/markdown_escape.h"
#include "reports/render.h"
#include "reports/text_sections.h"

namespace triage {
namespace {

constexpr size_t kDetailedHypotheses = 3;
constexpr size_t kTimelineRows = 30;

std::string link_text(const Report& report, const FindingLink& link) {
  std::string label = text::finding_label(report, link);  // "F3 id" or "id"
  size_t space = label.find(' ');
  std::string s = space == std::string::npos ? md::code(label)
                                             : label.substr(0, space) + " " + md::code(label.substr(space + 1));
  if (!link.why.empty()) s += ": " + md::prose(link.why);
  return s;
}

void links(std::string& out, std::string_view label, const std::vector<FindingLink>& ls,
           const Report& report) {
  if (ls.empty()) return;
  fmt::format_to(std::back_inserter(out), "- **{}**\n", label);
  for (const auto& l : ls) out += "  - " + link_text(report, l) + "\n";
}

void verdict(std::string& out, const Report& report) {
  auto put = std::back_inserter(out);
  const Verdict& v = report.verdict;
  if (!v.reply.empty()) {  // one line each, as the text report shows them (hard breaks)
    out += "## In short\n\n";
    std::vector<std::string_view> lines = split(v.reply, '\n');
    for (size_t i = 0; i < lines.size(); ++i) out += md::prose(lines[i]) + (i + 1 < lines.size() ? "  \n" : "\n\n");
  }
  out += "## Verdict\n\n";
  if (v.ranked.empty()) {  // no fault found stands alone
    out += v.summary.empty() ? "No verdict: no hypothesis was ranked (no analysis ran on this evidence).\n\n"
                             : md::prose(v.summary) + "\n\n";
    return;
  }
  if (!v.summary.empty()) out += md::prose(v.summary) + "\n\n";
  out += "| # | Hypothesis | Confidence | Supported by | Contradicted by |\n";
  out += "|---|---|---|---|---|\n";
  auto ids = [&](const std::vector<FindingLink>& ls) {
    std::string s;
    for (const auto& l : ls) s += (s.empty() ? "" : ", ") + md::code(text::finding_label(report, l), true);
    return s.empty() ? std::string("-") : s;
  };
  for (size_t i = 0; i < v.ranked.size(); ++i) {
    const Hypothesis& h = v.ranked[i];
    fmt::format_to(put, "| {} | {} | {} | {} | {} |\n", i + 1, md::code(h.id, true),
                   to_string(h.confidence), ids(h.supporting), ids(h.contradicting));
  }
  out += '\n';
  for (size_t i = 0; i < v.ranked.size() && i < kDetailedHypotheses; ++i) {
    const Hypothesis& h = v.ranked[i];
    fmt::format_to(put, "### {}. {}\n\n", i + 1, md::prose(h.title.empty() ? h.id : h.title));
    fmt::format_to(put, "- **Hypothesis:** {}, {} confidence, score {:g}{}\n", md::code(h.id),
                   to_string(h.confidence), h.score, h.host.empty() ? "" : ", host " + md::code(h.host));
    if (!h.rationale.empty()) out += "- **Why:** " + md::prose(h.rationale) + "\n";
    links(out, "Supported by:", h.supporting, report);
    links(out, "Contradicted by:", h.contradicting, report);
    links(out, "Explains:", h.consequences, report);
    if (!h.does_not_prove.empty()) out += "- **Does not prove:** " + md::prose(h.does_not_prove) + "\n";
    out += '\n';
  }
  const NextCheck& next = v.next_check;
  if (!next.description.empty() || !next.command.empty()) {
    out += "### Next check";
    if (!next.separates.empty()) out += " (" + md::text(next.separates) + ")";
    out += "\n\n";
    if (!next.description.empty()) out += md::prose(next.description) + "\n\n";
    if (!next.command.empty()) out += md::fenced(next.command, {}, "sh") + "\n";
  }
  if (!v.collect_more.empty()) {
    out += "### Collect more (the evidence is insufficient for a verdict)\n\n";
    std::string commands;
    for (const auto& c : v.collect_more) commands += (commands.empty() ? "" : "\n") + c;
    out += md::fenced(commands, {}, "sh") + "\n";
  }
}

void bundle(std::string& out, const BundleSummary& s, const BundleFacts& b) {
  auto put = std::back_inserter(out);
  fmt::format_to(put, "## Bundle {}\n\n", md::code(s.input));
  auto field = [&](std::string_view label, const std::string& value) {
    fmt::format_to(put, "- **{}**{}{}\n", label, value.empty() ? "" : " ", value);
  };
  field("Host:", s.host.empty() ? "unknown" : md::code(s.host) + " (" + md::text(s.host_origin) + ")");
  if (!s.os.empty() || !s.kernel_release.empty())
    field("System:", md::text(s.os) + (s.kernel_release.empty() ? "" : ", kernel " + md::code(s.kernel_release)));
  if (s.collected_at_us)
    field("Collected:", fmt::format("{} UTC{} ({})", format_utc(*s.collected_at_us),
                                    s.local_offset ? " = " + format_with_offset(*s.collected_at_us, *s.local_offset) +
                                                         " host local"
                                                   : "",
                                    md::text(s.collected_at_origin)));
  else
    field("Collected:", "unknown");
  field("Zone:", s.zone.empty() ? "unknown" : md::code(s.zone) + " from " + md::text(s.zone_origin));
  field("Entries:", md::text(entries_text(b.inventory)));
  if (std::string counted = counted_only_text(s); !counted.empty()) field("Repeats:", md::text(counted));
  if (!s.versions.empty()) field("Versions:", md::text(versions_text(s.versions)));
  if (std::string named = mentions_text(s.mentions); !named.empty()) field("Names:", md::text(named));
  if (!s.has_manifest) {
    field("Manifest:", "none: what was not collected, and why, is unknown");
  } else {
    std::string args;
    for (const auto& a : s.collector_args) args += (args.empty() ? "" : " ") + a;
    field("Collector:", "version " + md::code(s.collector_version.empty() ? "unknown" : s.collector_version) +
                            (args.empty() ? "" : ", arguments " + md::code(args)));
    field("Manifest:", fmt::format("{} items{}", s.items, s.items ? ": " + md::text(status_counts_text(s)) : ""));
  }
  if (!s.not_collected.empty()) {
    field("Not collected:", "");
    for (const auto& o : s.not_collected)
      fmt::format_to(put, "  - {} {}: {}\n", md::code(step_files_text(o)),
                     md::text(o.status == ItemStatus::other ? o.status_text : std::string(to_string(o.status))),
                     md::text(o.reason.empty() ? "(no reason given)" : o.reason));
  }
  if (!s.tool_errors.empty()) {
    field("Tool error text instead of data:", "");
    for (const auto& t : s.tool_errors)
      fmt::format_to(put, "  - {}: {}\n", md::code(t.path), md::text(t.reason));
  }
  for (const auto& n : s.notes) field("Note:", md::text(n));
  out += '\n';
}

void finding(std::string& out, size_t number, const Finding& f) {
  auto put = std::back_inserter(out);
  fmt::format_to(put, "### F{} {} ({}, {} confidence)\n\n", number, md::code(f.id), to_string(f.severity),
                 to_string(f.confidence));
  if (!f.title.empty()) out += "**" + md::prose(f.title) + "**\n\n";
  if (!f.host.empty()) out += "- **Host:** " + md::code(f.host) + "\n";
  if (!f.observed.empty()) out += "- **Observed:** " + md::prose(f.observed) + "\n";
  if (!f.supports.empty()) out += "- **Supports:** " + md::prose(f.supports) + "\n";
  if (!f.does_not_prove.empty()) out += "- **Does not prove:** " + md::prose(f.does_not_prove) + "\n";
  if (!f.next_checks.empty()) {
    out += "- **Next checks:**\n";
    for (const auto& c : f.next_checks) {
      auto [prose, command] = text::split_command(c);
      out += "  - " + (prose.empty() ? md::code(command)
                                     : md::prose(prose) + (command.empty() ? "" : " " + md::code(command))) +
             "\n";
    }
  }
  out += '\n';
  auto lines = [&](const std::vector<EvidenceRef>& refs, std::string_view label) {
    if (refs.empty()) return;
    out += std::string(label) + "\n\n";
    for (const auto& e : refs) {
      std::string where = e.line ? fmt::format("{}:{}", e.entry, e.line) : e.entry;
      out += "> " + md::code(where) + "\n";
      if (!e.excerpt.empty()) out += md::fenced(e.excerpt, "> ");
      out += "\n";
    }
  };
  lines(f.evidence, "Evidence:");
  lines(f.same_failure, "Same failure (from another layer, accounted for):");
}

void timeline(std::string& out, const Timeline& t) {
  auto put = std::back_inserter(out);
  std::vector<size_t> rows = text::top_timeline_rows(t, kTimelineRows);
  out += "## Timeline\n\n";
  if (auto w = focus_window(t))
    fmt::format_to(put, "Incident window: {} to {} ({}).\n\n", text::utc_seconds(w->lo), text::utc_seconds(w->hi),
                   md::text(w->why));
  if (rows.size() < t.events.size())
    fmt::format_to(put, "The {} most severe of {} events (`ascend-triage timeline` shows all).\n\n",
                   rows.size(), t.events.size());
  out += "| UTC | Host local | Source | Severity | Count | Event | Evidence |\n";
  out += "|---|---|---|---|---|---|---|\n";
  for (size_t r : rows) {
    const TimelineEvent& e = t.events[r];
    std::string where = e.evidence.entry.empty()
                            ? "-"
                            : md::code(e.evidence.line ? fmt::format("{}:{}", e.evidence.entry, e.evidence.line)
                                                       : e.evidence.entry,
                                       true);
    fmt::format_to(put, "| {} | {} | {} | {} | {} | {} | {} |\n", text::utc_seconds(e.first_utc_us),
                   text::local_clock(e), md::text(e.source), to_string(e.severity),
                   e.count > 1 ? fmt::format("{} until {}", e.count, text::utc_seconds(e.last_utc_us)) : "1",
                   md::prose(e.message, true), where);
  }
  out += '\n';
  for (const ClockSkew& k : t.skews)
    fmt::format_to(put, "- Clock skew {} vs {}{}: {:+.3f} s over {} pair(s) ({})\n", md::text(k.source_b),
                   md::text(k.source_a), k.host.empty() ? "" : " on " + md::code(k.host), k.b_minus_a_seconds,
                   k.pairs, md::text(k.method));
  if (!t.skews.empty()) out += '\n';
}

}  // namespace

void render_markdown(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                     std::ostream& out) {
  std::string s = "# ascend-triage report\n\n";
  if (!opt.redaction_note.empty()) s += "> **" + md::text(opt.redaction_note) + "**\n\n";
  verdict(s, report);
  for (size_t i = 0; i < evidence.bundles.size() && i < report.bundles.size(); ++i)
    bundle(s, report.bundles[i], evidence.bundles[i]);
  fmt::format_to(std::back_inserter(s), "## Findings ({})\n\n", report.findings.size());
  if (report.findings.empty()) s += "No finding.\n\n";
  for (size_t i = 0; i < report.findings.size(); ++i) finding(s, i + 1, report.findings[i]);
  if (!report.timeline.events.empty()) timeline(s, report.timeline);
  while (s.size() > 1 && s[s.size() - 1] == '\n' && s[s.size() - 2] == '\n') s.pop_back();
  out << s;
}

}  // namespace triage
