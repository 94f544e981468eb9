// `analyze --format md`: a report to paste into a ticket. The verdict first, then the bundle,
// then each finding with its evidence as quoted excerpts under `path:line` (the path inside the
// bundle), then a table of the most severe timeline events. By default the document fits a
// ticket (kMarkdownBudget characters; Jira's default limit is 32,767): smaller limits are tried
// in turn and a note at the top says what was left out; --full shows everything. Every string
// from a bundle goes through reports/markdown_escape.h.
#include <fmt/format.h>

#include <iterator>

#include "model/bundle_summary.h"
#include "model/strings.h"
#include "model/time.h"
#include "reports/timeline_focus.h"
#include "reports/markdown_escape.h"
#include "reports/markdown_parts.h"
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

// Findings that bear on a hypothesis for the same reason share one line: the reason once.
void links(std::string& out, std::string_view label, const std::vector<FindingLink>& ls,
           const Report& report) {
  if (ls.empty()) return;
  fmt::format_to(std::back_inserter(out), "- **{}**\n", label);
  std::vector<bool> done(ls.size());
  for (size_t i = 0; i < ls.size(); ++i) {
    if (done[i]) continue;
    auto bare = [](FindingLink l) {
      l.why.clear();
      return l;
    };
    std::string line = link_text(report, bare(ls[i]));
    for (size_t j = i + 1; j < ls.size(); ++j)
      if (!done[j] && ls[j].why == ls[i].why) {
        done[j] = true;
        line += ", " + link_text(report, bare(ls[j]));
      }
    out += "  - " + line + (ls[i].why.empty() ? "" : ": " + md::prose(ls[i].why)) + "\n";
  }
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

void bundle(std::string& out, const BundleSummary& s, const BundleFacts& b, const md::Limits& limits,
            md::Cuts& cuts) {
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
  // A list of a bundle section up to limits.list_items, then how many more.
  auto more = [&](size_t total, std::string_view indent) {
    if (total <= limits.list_items) return;
    fmt::format_to(put, "{}- {} more not shown\n", indent, total - limits.list_items);
    cuts.items += total - limits.list_items;
  };
  if (!s.not_collected.empty()) {
    field("Not collected:", "");
    for (size_t i = 0; i < s.not_collected.size() && i < limits.list_items; ++i) {
      const auto& o = s.not_collected[i];
      fmt::format_to(put, "  - {} {}: {}\n", md::code(step_files_text(o)),
                     md::text(o.status == ItemStatus::other ? o.status_text : std::string(to_string(o.status))),
                     md::text(o.reason.empty() ? "(no reason given)" : md::shorten(o.reason, limits.prose, cuts)));
    }
    more(s.not_collected.size(), "  ");
  }
  if (!s.tool_errors.empty()) {
    field("Tool error text instead of data:", "");
    for (size_t i = 0; i < s.tool_errors.size() && i < limits.list_items; ++i)
      fmt::format_to(put, "  - {}: {}\n", md::code(s.tool_errors[i].path),
                     md::text(md::shorten(s.tool_errors[i].reason, limits.prose, cuts)));
    more(s.tool_errors.size(), "  ");
  }
  for (size_t i = 0; i < s.notes.size() && i < limits.list_items; ++i)
    field("Note:", md::text(md::shorten(s.notes[i], limits.prose, cuts)));
  more(s.notes.size(), "");
  out += '\n';
}

void timeline(std::string& out, const Timeline& t, const EvidencePaths& paths, const md::Limits& limits,
              md::Cuts& cuts) {
  auto put = std::back_inserter(out);
  std::vector<size_t> rows = text::top_timeline_rows(t, std::min(limits.timeline_rows, kTimelineRows));
  cuts.timeline += std::min(t.events.size(), kTimelineRows) - rows.size();
  out += "## Timeline\n\n";
  if (auto w = focus_window(t))
    fmt::format_to(put, "Incident window: {} to {} ({}).\n\n", text::utc_seconds(w->lo), text::utc_seconds(w->hi),
                   md::text(w->why));
  if (rows.empty()) {
    fmt::format_to(put, "{} events (`ascend-triage timeline` shows them).\n\n", t.events.size());
  } else if (rows.size() < t.events.size()) {
    fmt::format_to(put, "The {} most severe of {} events (`ascend-triage timeline` shows all).\n\n",
                   rows.size(), t.events.size());
  }
  if (!rows.empty()) out += "| UTC | Host local | Source | Severity | Count | Event | Evidence |\n";
  if (!rows.empty()) out += "|---|---|---|---|---|---|---|\n";
  for (size_t r : rows) {
    const TimelineEvent& e = t.events[r];
    std::string where = e.evidence.entry.empty() ? "-" : md::code(paths.where(e.evidence), true);
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

// The limits tried in turn until the document fits the budget: the first is the default
// layout (three evidence lines per finding, findings at info one line each, 15 timeline rows), the
// later ones give up timeline rows, evidence and long texts, then show findings above info as
// one line each from the last.
std::vector<md::Limits> budget_steps(const Report& report) {
  std::vector<md::Limits> steps;
  md::Limits l;
  l.evidence = 3;
  l.info_in_full = false;
  l.timeline_rows = 15;
  l.list_items = 20;
  l.prose = 2000;
  steps.push_back(l);
  l.evidence = 2, l.timeline_rows = 10, l.list_items = 10, l.prose = 1000;
  steps.push_back(l);
  l.evidence = 1, l.timeline_rows = 5, l.prose = 600;
  steps.push_back(l);
  l.timeline_rows = 0, l.list_items = 5, l.prose = 300;
  steps.push_back(l);
  size_t above_info = 0;
  for (const Finding& f : report.findings) above_info += f.severity != Severity::info;
  for (size_t n = above_info / 2; n > 0; n /= 2) {
    l.detailed = n;
    steps.push_back(l);
  }
  l.detailed = 0;
  steps.push_back(l);
  return steps;
}

md::Doc compose(const Report& report, const EvidenceSet& evidence, const EvidencePaths& paths,
                const md::Limits& limits, md::Cuts& cuts, const std::string& knowledge_dir) {
  md::Doc doc;
  std::string& s = doc.text;
  verdict(s, report);
  doc.mark("", cuts, 0, 0);
  size_t bundles = 0;
  for (size_t i = 0; i < evidence.bundles.size() && i < report.bundles.size(); ++i) {
    bundle(s, report.bundles[i], evidence.bundles[i], limits, cuts);
    doc.mark("", cuts, 0, ++bundles);
  }
  md::findings(doc, report, paths, limits, cuts, bundles, knowledge_dir);
  if (!report.timeline.events.empty()) timeline(s, report.timeline, paths, limits, cuts);
  return doc;
}

// "> **Shortened to fit a ticket (...):** not shown: ...; --full shows everything."
std::string cut_note(const md::Cuts& c) {
  std::vector<std::string> parts;
  auto count = [&](size_t n, std::string_view what) {
    if (n) parts.push_back(fmt::format("{} {}", n, what));
  };
  count(c.findings_dropped, "finding(s)");
  count(c.bundles_dropped, "bundle section(s)");
  if (c.timeline_dropped) parts.emplace_back("the timeline");
  count(c.evidence, "evidence line(s)");
  count(c.timeline, "timeline row(s)");
  count(c.items, "list item(s) of the bundle summary");
  if (c.info_short) parts.push_back(fmt::format("the details of {} finding(s) at info", c.info_short));
  if (c.findings_short) parts.push_back(fmt::format("the details of {} finding(s) above info", c.findings_short));
  if (c.shortened) parts.push_back(fmt::format("the end of {} long text(s)", c.shortened));
  std::string list;
  for (size_t i = 0; i < parts.size(); ++i)
    list += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  return fmt::format("> Shortened to fit a ticket ({} characters): {} not shown; `--full` shows everything.\n\n",
                     kMarkdownBudget, list);
}

}  // namespace

void render_markdown(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                     std::ostream& out) {
  std::string head = "# ascend-triage report\n\n";
  if (!opt.redaction_note.empty()) head += "> **" + md::text(opt.redaction_note) + "**\n\n";
  EvidencePaths paths(evidence);
  md::Cuts cuts;
  md::Doc doc;
  if (opt.full) {
    doc = compose(report, evidence, paths, md::Limits{}, cuts, opt.knowledge_dir);
  } else {
    constexpr size_t kNoteRoom = 600;  // room for the note when cutting (at most nine counts)
    auto fits = [&] {
      return head.size() + (cuts.any() ? cut_note(cuts).size() : 0) + doc.text.size() < kMarkdownBudget;
    };
    for (const md::Limits& limits : budget_steps(report)) {
      cuts = md::Cuts{};
      doc = compose(report, evidence, paths, limits, cuts, opt.knowledge_dir);
      if (fits()) break;
    }
    // Even the smallest limits do not fit (many inputs, many findings): cut after the last
    // whole section that fits and count what went.
    if (!fits()) {
      size_t room = kMarkdownBudget - head.size() - kNoteRoom - 64;
      size_t findings = report.findings.size(), bundles = std::min(evidence.bundles.size(), report.bundles.size());
      const md::Doc::CutPoint* at = nullptr;
      for (const auto& p : doc.cut_points)
        if (p.offset + p.closer.size() <= room) at = &p;
      size_t keep = at ? at->offset : 0;
      std::string closer = at ? at->closer : std::string();
      cuts = at ? at->cuts : md::Cuts{};
      cuts.findings_dropped = findings - (at ? at->findings_done : 0);
      cuts.bundles_dropped = bundles - (at ? at->bundles_done : 0);
      cuts.timeline_dropped = !report.timeline.events.empty();
      doc.text.resize(keep);
      if (!at) doc.text = "The report does not fit a ticket; `--full` or `--format json` shows it.\n\n";
      doc.text += closer;
    }
  }
  std::string s = head + (cuts.any() ? cut_note(cuts) : "") + doc.text;
  while (s.size() > 1 && s[s.size() - 1] == '\n' && s[s.size() - 2] == '\n') s.pop_back();
  out << s;
}

}  // namespace triage
