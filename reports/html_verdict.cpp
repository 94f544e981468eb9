// The verdict card of the HTML report: what most probably caused the problem, what speaks
// for and against each hypothesis (links to the findings below), and the next check.
#include <fmt/format.h>

#include "model/strings.h"
#include "reports/html_escape.h"
#include "reports/html_parts.h"

namespace triage::html {
namespace {

// A link to a finding by its index in Report::findings; plain text when the index does not
// point at a finding of that id (a stale link must not send the reader to the wrong one).
void finding_link(const Report& report, const FindingLink& l, std::string& out) {
  bool valid = l.index < report.findings.size() && report.findings[l.index].id == l.id;
  std::optional<size_t> index = valid ? std::optional<size_t>(l.index) : finding_index(report, l.id);
  if (index)
    out += fmt::format("<a href=\"#{}\" class=\"mono\">{}</a>", anchor("f", *index), escape(l.id));
  else
    out += fmt::format("<span class=\"mono\">{}</span>", escape(l.id));
  if (!l.why.empty()) out += ": " + inline_markup(l.why);
}

void link_list(const Report& report, std::string_view label, const std::vector<FindingLink>& links,
               std::string& out) {
  if (links.empty()) return;
  out += fmt::format("<div>{} ({}):</div>\n<ul class=\"links\">\n", label, links.size());
  for (const auto& l : links) {
    out += "<li>";
    finding_link(report, l, out);
    out += "</li>\n";
  }
  out += "</ul>\n";
}

}  // namespace

void in_short_card(const Report& report, std::string& out) {
  const Verdict& v = report.verdict;
  if (v.reply.empty()) return;
  std::string lines;  // one line each, as the text report shows them
  for (std::string_view line : split(v.reply, '\n')) lines += (lines.empty() ? "" : "<br>\n") + inline_markup(line);
  out += fmt::format("<h2 id=\"in-short\">In short</h2>\n<section class=\"card\">\n<p class=\"reply\">{}</p>\n</section>\n",
                     lines);
}

void verdict_card(const Report& report, std::string& out) {
  const Verdict& v = report.verdict;
  out += "<h2 id=\"verdict\">Verdict</h2>\n<section class=\"card verdict\">\n";
  if (!v.summary.empty()) out += fmt::format("<p class=\"summary\">{}</p>\n", inline_markup(v.summary));
  if (v.ranked.empty() && v.summary.empty()) out += "<p class=\"muted\">No hypothesis was ranked.</p>\n";
  else if (!v.ranked.empty()) out += "<ol class=\"hyps\">\n";
  for (size_t i = 0; i < v.ranked.size(); ++i) {
    const Hypothesis& h = v.ranked[i];
    out += fmt::format("<li class=\"hyp\" id=\"{}\">\n<span class=\"hyp-title\">{}</span> ",
                       anchor("h", i), inline_markup(h.title.empty() ? h.id : h.title));
    out += fmt::format("<span class=\"conf\">{} confidence</span> <span class=\"score mono\">{}",
                       to_string(h.confidence), escape(h.id));
    if (!h.host.empty()) out += " &middot; host " + escape(h.host);
    out += fmt::format(" &middot; score {:.2f}</span>\n", h.score);
    if (!h.rationale.empty()) out += fmt::format("<p class=\"field\">{}</p>\n", inline_markup(h.rationale));
    link_list(report, "Supported by", h.supporting, out);
    link_list(report, "Contradicted by", h.contradicting, out);
    link_list(report, "Explains as consequences", h.consequences, out);
    if (!h.does_not_prove.empty())
      out += fmt::format("<p class=\"field\"><b>Does not prove:</b> {}</p>\n", inline_markup(h.does_not_prove));
    out += "</li>\n";
  }
  if (!v.ranked.empty()) out += "</ol>\n";
  const NextCheck& n = v.next_check;
  if (!n.description.empty() || !n.command.empty()) {
    out += "<h3>Next check</h3>\n";
    if (!n.separates.empty())
      out += fmt::format("<p class=\"field\"><b>Separates:</b> <span class=\"mono\">{}</span></p>\n", escape(n.separates));
    if (!n.description.empty()) out += fmt::format("<p class=\"field\">{}</p>\n", inline_markup(n.description));
    if (!n.command.empty()) out += fmt::format("<pre><code>{}</code></pre>\n", escape(n.command, true));
  }
  if (!v.collect_more.empty()) {
    out += "<h3>Collect more</h3>\n<ul>\n";
    for (const auto& c : v.collect_more) out += fmt::format("<li><code>{}</code></li>\n", escape(c));
    out += "</ul>\n";
  }
  out += "</section>\n";
}

}  // namespace triage::html
