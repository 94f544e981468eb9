// `analyze --format html`: one self-contained offline page. No script, no external
// resource: the Content-Security-Policy forbids both, and the page needs neither
// (<details> collapses evidence, SVG <title> gives hover text). docs/html-report.md.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

#include "knowledge/source_links.h"
#include "model/bundle_summary.h"
#include "reports/also_read_as.h"
#include "reports/html_escape.h"
#include "reports/html_parts.h"
#include "reports/html_style.h"
#include "reports/render.h"

namespace triage {
namespace html {

std::string severity_class(Severity s) { return fmt::format("sev-{}", to_string(s)); }

std::optional<size_t> finding_index(const Report& report, std::string_view id) {
  for (size_t i = 0; i < report.findings.size(); ++i)
    if (report.findings[i].id == id) return i;
  return std::nullopt;
}

namespace {

void field(std::string& out, std::string_view label, std::string_view text) {
  if (text.empty()) return;
  out += fmt::format("<p class=\"field\"><b>{}:</b> {}</p>\n", label, inline_markup(text));
}

// One collapsible block of evidence lines: entry:line, then the excerpt.
void evidence_block(std::string_view label, const std::vector<EvidenceRef>& lines, const EvidencePaths& paths,
                    std::string& out) {
  out += fmt::format("<details><summary>{} ({} line{})</summary>\n", label, lines.size(),
                     lines.size() == 1 ? "" : "s");
  for (const auto& e : lines) {
    out += "<div class=\"ev-ref\">";
    append_escaped(out, paths.where(e));
    out += "</div>\n<pre>";
    append_escaped(out, e.excerpt);
    out += "</pre>\n";
  }
  out += "</details>\n";
}

void evidence_list(const Finding& f, const EvidencePaths& paths, std::string& out) {
  if (f.evidence.empty()) {
    out += "<p class=\"muted\">No evidence lines recorded.</p>\n";
    return;
  }
  evidence_block("Evidence", f.evidence, paths, out);
  // Lines of the same failure from another layer: read and accounted for, not cited.
  if (!f.same_failure.empty()) evidence_block("Same failure", f.same_failure, paths, out);
}

// The public pages the finding rests on (knowledge/finding-sources.tsv): links out of the
// page, the only ones it has; their URLs come from the knowledge, never from a bundle, and the
// page sends no referrer (rel and the referrer meta).
void rests_on(const Finding& f, const std::string& knowledge_dir, std::string& out) {
  std::vector<Link> links = finding_links(knowledge_dir, f.id);
  if (links.empty()) return;
  out += "<p class=\"field\"><b>Rests on:</b></p>\n<ul class=\"sources\">\n";
  for (const auto& l : links)
    out += fmt::format("<li><a href=\"{}\" rel=\"noreferrer noopener\">{}</a></li>\n", escape(l.url), escape(l.what));
  out += "</ul>\n";
}

void finding(const Finding& f, size_t index, const EvidencePaths& paths, const std::string& knowledge_dir,
             std::string& out) {
  out += fmt::format("<section class=\"finding {}\" id=\"{}\">\n", severity_class(f.severity),
                     anchor("f", index));
  out += fmt::format("<h3><span class=\"badge\">{}</span> {} <span class=\"conf\">{} confidence</span></h3>\n",
                     to_string(f.severity), inline_markup(f.title), to_string(f.confidence));
  out += "<div class=\"fid\">";
  append_escaped(out, f.id);
  if (!f.host.empty()) {
    out += " &middot; host ";
    append_escaped(out, f.host);
  }
  out += "</div>\n";
  field(out, "Observed", f.observed);
  field(out, "Supports", f.supports);
  field(out, "Does not prove", f.does_not_prove);
  std::string also;  // other findings of the same event, folded into this one
  for (const auto& a : also_read_as_by_id(f)) also += (also.empty() ? "" : "; ") + also_read_as_text(a);
  field(out, "Also read as", also);
  if (!f.next_checks.empty()) {
    out += "<p class=\"field\"><b>Next checks:</b></p>\n<ul>\n";
    for (const auto& c : f.next_checks) out += fmt::format("<li><code>{}</code></li>\n", escape(c));
    out += "</ul>\n";
  }
  rests_on(f, knowledge_dir, out);
  if (!f.values.empty()) {
    out += "<details><summary>Values</summary>\n<dl class=\"kv\">\n";
    for (const auto& [k, v] : f.values)
      if (k != kAlsoReadAsValue)  // shown as "Also read as" above
        out += fmt::format("<dt>{}</dt><dd class=\"mono\">{}</dd>\n", escape(k), escape(v));
    out += "</dl>\n</details>\n";
  }
  evidence_list(f, paths, out);
  out += "</section>\n";
}

}  // namespace

void findings_section(const Report& report, const EvidencePaths& paths, bool open_info,
                      const std::string& knowledge_dir, std::string& out) {
  size_t counts[4] = {};
  for (const auto& f : report.findings) ++counts[static_cast<int>(f.severity)];
  out += fmt::format("<h2 id=\"findings\">Findings ({})</h2>\n", report.findings.size());
  if (report.findings.empty()) {
    out += "<p class=\"muted\">No findings.</p>\n";
    return;
  }
  out += fmt::format("<p class=\"sub\">{} critical, {} error, {} warning, {} info; most severe first.</p>\n",
                     counts[3], counts[2], counts[1], counts[0]);
  if (paths.has_inputs())
    out += "<p class=\"muted\">Evidence paths are inside the input named under Evidence above: "
           "<code>ascend-triage show INPUT/PATH:LINE</code> (a directory), <code>INPUT!PATH:LINE</code> (an "
           "archive) or <code>FILE:LINE</code> (a loose file) prints the lines around one.</p>\n";
  for (size_t i = 0; i < report.findings.size(); ++i)
    if (report.findings[i].severity != Severity::info) finding(report.findings[i], i, paths, knowledge_dir, out);
  // Findings at info are context, not faults: folded under their count.
  if (counts[0] == 0) return;
  out += fmt::format("<details class=\"info-findings\"{}><summary>{} finding{} at info</summary>\n",
                     open_info ? " open" : "", counts[0], counts[0] == 1 ? "" : "s");
  for (size_t i = 0; i < report.findings.size(); ++i)
    if (report.findings[i].severity == Severity::info) finding(report.findings[i], i, paths, knowledge_dir, out);
  out += "</details>\n";
}

}  // namespace html

void render_html(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                 std::ostream& out) {
  std::set<std::string> hosts;
  std::optional<int> host_offset;
  for (const auto& b : evidence.bundles)
    if (!b.host.empty()) hosts.insert(b.host);
  for (const auto& s : report.bundles)
    if (!host_offset) host_offset = s.local_offset;
  std::string host_list = fmt::format("{}", fmt::join(hosts, ", "));
  if (host_list.empty()) host_list = "unknown host";

  std::string page;
  page.reserve(64 * 1024);
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; img-src data:\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<meta name=\"referrer\" content=\"no-referrer\">\n";
  page += fmt::format("<title>ascend-triage report: {}</title>\n", html::escape(host_list));
  page += "<style>";
  page += html::kStyle;
  page += html::kSvgStyle;
  page += "</style>\n</head>\n<body>\n";
  page += fmt::format("<h1>ascend-triage report: {}</h1>\n", html::escape(host_list));
  if (!opt.redaction_note.empty())
    page += fmt::format("<p class=\"sub\"><strong>{}</strong></p>\n", html::escape(opt.redaction_note));
  page += fmt::format(
      "<p class=\"sub\">{} input(s), {} finding(s), most severe: {}. Times are UTC; the host's "
      "local time is shown beside them.</p>\n",
      evidence.bundles.size(), report.findings.size(),
      report.findings.empty() ? std::string_view("none") : to_string(report.max_severity()));
  // What to paste first, then when and where it happened, then why.
  html::in_short_card(report, page);
  html::timeline_section(report, host_offset, ranks_from_environ(evidence), page);
  html::verdict_card(report, page);
  page += "<h2 id=\"bundles\">Evidence</h2>\n";
  for (size_t i = 0; i < evidence.bundles.size() && i < report.bundles.size(); ++i)
    html::bundle_summary(report.bundles[i], evidence.bundles[i], page);
  html::findings_section(report, EvidencePaths(evidence), opt.full, opt.knowledge_dir, page);
  page += fmt::format("<footer>ascend-triage {}: offline report; every text from the evidence is "
                      "shown as text, nothing in this page runs or loads anything.</footer>\n",
                      ASCEND_TRIAGE_VERSION);
  page += "</body>\n</html>\n";
  out << page;
}

}  // namespace triage
