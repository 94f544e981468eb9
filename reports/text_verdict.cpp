// The verdict section of the text report: ranked hypotheses with the findings for and against
// each, the next check that separates the top two, and what to collect when evidence is short.
#include <fmt/format.h>

#include "model/strings.h"
#include "reports/text_sections.h"

namespace triage::text {
namespace {

constexpr size_t kDetailedHypotheses = 3;  // the rest get one line each
constexpr std::string_view kBlock = "     ";  // under "  1. "

void append_links(std::string& out, std::string_view label, const std::vector<FindingLink>& links,
                  const Report& report, const Layout& layout) {
  if (links.empty()) return;
  std::string first = std::string(kBlock) + std::string(label);
  first += pad_to(first, kBlock.size() + kLabelColumns);
  std::string hanging(kBlock.size() + kLabelColumns, ' ');
  // Findings that bear on the hypothesis for the same reason share one line: the reason once.
  std::vector<bool> done(links.size());
  for (size_t i = 0; i < links.size(); ++i) {
    if (done[i]) continue;
    std::string text = finding_label(report, links[i]);
    for (size_t j = i + 1; j < links.size(); ++j)
      if (!done[j] && links[j].why == links[i].why) {
        done[j] = true;
        text += ", " + finding_label(report, links[j]);
      }
    if (!links[i].why.empty()) text += ": " + links[i].why;
    append_wrapped(out, text, first, hanging + "  ", layout.width);
    first = hanging;
  }
}

void append_hypothesis(std::string& out, size_t rank, const Hypothesis& h, const Report& report,
                       const Layout& layout) {
  const Style& st = layout.style;
  std::string number = fmt::format("  {}. ", rank);
  append_wrapped(out, h.title.empty() ? h.id : h.title, st.bold(number), std::string(kBlock),
                 layout.width);
  std::string meta = fmt::format("{} - {} confidence - score {:g}", h.id, to_string(h.confidence), h.score);
  if (!h.host.empty()) meta += " - host " + h.host;
  append_wrapped(out, meta, std::string(kBlock), std::string(kBlock) + "  ", layout.width);
  if (!h.rationale.empty()) append_labelled(out, kBlock, "Why:", h.rationale, layout);
  append_links(out, "Supported by:", h.supporting, report, layout);
  append_links(out, "Contradicted by:", h.contradicting, report, layout);
  append_links(out, "Explains:", h.consequences, report, layout);
  if (!h.does_not_prove.empty()) append_labelled(out, kBlock, "Does not prove:", h.does_not_prove, layout);
}

}  // namespace

std::string finding_label(const Report& report, const FindingLink& link) {
  if (link.index < report.findings.size() && report.findings[link.index].id == link.id)
    return fmt::format("F{} {}", link.index + 1, link.id);
  return link.id;  // an index that does not point at this id: name the finding only
}

void append_labelled(std::string& out, std::string_view indent, std::string_view label,
                     std::string_view text, const Layout& layout) {
  std::string first = std::string(indent) + std::string(label);
  first += pad_to(first, indent.size() + kLabelColumns);
  append_wrapped(out, text, first, std::string(indent.size() + kLabelColumns, ' '), layout.width);
}

void append_verdict(std::string& out, const Report& report, const Layout& layout) {
  const Style& st = layout.style;
  const Verdict& v = report.verdict;
  // The paragraph to paste into a ticket reply comes first, in plain words.
  if (!v.reply.empty()) {
    out += st.bold("In short");
    out += '\n';
    for (std::string_view line : split(v.reply, '\n'))  // lines that fit (verdict_reply.h)
      append_wrapped(out, line, "  ", "  ", layout.width);
    out += '\n';
  }
  out += st.bold("Verdict");
  out += '\n';
  // No fault found stands alone: the summary says what was read, nothing is ranked.
  if (v.ranked.empty()) {
    if (v.summary.empty()) out += "  No verdict: no hypothesis was ranked (no analysis ran on this evidence).\n";
    else append_wrapped(out, v.summary, "  ", "  ", layout.width);
    return;
  }
  if (!v.summary.empty()) append_wrapped(out, v.summary, "  ", "  ", layout.width);
  for (size_t i = 0; i < v.ranked.size() && i < kDetailedHypotheses; ++i) {
    out += '\n';
    append_hypothesis(out, i + 1, v.ranked[i], report, layout);
  }
  if (v.ranked.size() > kDetailedHypotheses) {
    std::string rest;
    for (size_t i = kDetailedHypotheses; i < v.ranked.size(); ++i)
      rest += fmt::format("{}{} ({})", rest.empty() ? "" : ", ", v.ranked[i].id,
                          to_string(v.ranked[i].confidence));
    out += '\n';
    append_wrapped(out, rest, "  Also ranked: ", std::string(15, ' '), layout.width);
  }
  const NextCheck& next = v.next_check;
  if (!next.description.empty() || !next.command.empty()) {
    out += '\n';
    if (next.separates.empty()) append_wrapped(out, "", st.bold("  Next check:"), "", layout.width);
    else append_wrapped(out, "(" + next.separates + "):", st.bold("  Next check") + " ", kBlock, layout.width);
    if (!next.description.empty()) append_wrapped(out, next.description, kBlock, kBlock, layout.width);
    if (!next.command.empty()) append_command(out, next.command, std::string(kBlock) + "$ ", st, layout.width);
  }
  if (!v.collect_more.empty()) {
    out += '\n';
    append_wrapped(out, "(the evidence is insufficient for a verdict):", st.bold("  Collect more") + " ", kBlock,
                   layout.width);
    for (const auto& c : v.collect_more) append_command(out, c, std::string(kBlock) + "$ ", st, layout.width);
  }
}

}  // namespace triage::text
