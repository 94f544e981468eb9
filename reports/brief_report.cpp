// `analyze --format brief` (`--brief`): the ticket reply of issue 38. The verdict's "In short"
// (at most five lines) as plain text, one evidence line of each finding the
// leading hypothesis rests on, with its path inside the bundle, then the finding counts. No
// line is wider than RenderOptions::width; bundle text is made printable here, as in the text
// report (the output guard of reports/safe_output.h stands behind it).
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

#include "model/strings.h"
#include "reports/display_width.h"
#include "reports/evidence_path.h"
#include "reports/render.h"
#include "reports/text_layout.h"

namespace triage {
namespace {

constexpr size_t kReplyLines = 5;     // issue 38: "In short" fits a ticket in five lines
constexpr size_t kEvidenceLines = 5;  // one per finding; --format text has them all
constexpr size_t kMinExcerpt = 12;    // columns; an excerpt cut shorter says nothing
constexpr std::string_view kIndent = "  ";

// `text` wrapped at `width` columns: a token wider than a line (a path, a command) is split
// across lines too, where the text report lets it overflow to keep it copyable.
std::vector<std::string> wrap(std::string_view text, size_t width) {
  std::string wrapped;
  text::append_wrapped(wrapped, text, "", "", width);
  std::vector<std::string> lines;
  for (std::string_view line : split(std::string_view(wrapped).substr(0, wrapped.size() - 1), '\n')) {
    while (display_width(line) > width) {
      size_t cut = std::max<size_t>(prefix_fitting(line, width), 1);
      lines.emplace_back(line.substr(0, cut));
      line.remove_prefix(cut);
    }
    lines.emplace_back(line);
  }
  return lines;
}

std::string cut_to(std::string_view s, size_t columns) {  // with "..." when cut
  if (display_width(s) <= columns) return std::string(s);
  return std::string(s.substr(0, prefix_fitting(s, columns - 3))) + "...";
}

// "In short" as the correlator wrote it (verdict_reply.h: at most five lines that fit 100
// columns), backticks dropped; a narrower --width wraps it and keeps the first five lines.
std::vector<std::string> reply_lines(std::string_view reply, size_t width) {
  std::string plain;
  for (char c : reply)
    if (c != '`') plain += c;
  std::vector<std::string> kept;
  for (std::string_view line : split(plain, '\n'))
    for (std::string& l : wrap(line, width)) kept.push_back(std::move(l));
  if (kept.size() > kReplyLines) {
    kept.resize(kReplyLines);
    kept.back() = cut_to(kept.back() + " ...", width);
  }
  return kept;
}

const Finding* linked_finding(const Report& report, const FindingLink& link) {
  if (link.index < report.findings.size() && report.findings[link.index].id == link.id)
    return &report.findings[link.index];
  for (const Finding& f : report.findings)  // an index that does not point at this id
    if (f.id == link.id) return &f;
  return nullptr;
}

// The findings whose evidence the reply rests on: those supporting the leading hypothesis
// that cite a line, else every finding at warning or above that does, most severe first.
std::vector<const Finding*> cited_findings(const Report& report) {
  std::vector<const Finding*> out;
  if (!report.verdict.ranked.empty())
    for (const FindingLink& link : report.verdict.ranked.front().supporting)
      if (const Finding* f = linked_finding(report, link);
          f && !f->evidence.empty() && std::find(out.begin(), out.end(), f) == out.end())
        out.push_back(f);
  if (!out.empty()) return out;
  for (const Finding& f : report.findings)
    if (f.severity >= Severity::warning && !f.evidence.empty()) out.push_back(&f);
  std::stable_sort(out.begin(), out.end(),
                   [](const Finding* a, const Finding* b) { return a->severity > b->severity; });
  return out;
}

std::string evidence_line(const EvidencePaths& paths, const EvidenceRef& e, size_t width) {
  std::string line = std::string(kIndent) + printable_utf8(paths.where(e));
  std::string excerpt = printable_utf8(trim(e.excerpt));
  size_t used = display_width(line) + 2;
  if (excerpt.empty() || used + kMinExcerpt > width) return line;
  return line + "  " + cut_to(excerpt, width - used);
}

}  // namespace

void render_brief(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                  std::ostream& out) {
  size_t width = static_cast<size_t>(std::max(opt.width, 40));
  std::vector<std::string> lines;
  if (!opt.redaction_note.empty()) {
    lines = wrap(opt.redaction_note, width);
    lines.emplace_back();  // the note is not part of the reply
  }
  if (report.verdict.reply.empty()) lines.emplace_back("No verdict: no hypothesis was ranked.");
  else
    for (std::string& l : reply_lines(report.verdict.reply, width)) lines.push_back(std::move(l));

  // Each finding's first line, or its first line another finding has not shown already.
  std::vector<std::string> cited;
  std::set<std::pair<std::string_view, uint64_t>> shown;
  EvidencePaths paths(evidence);
  for (const Finding* f : cited_findings(report)) {
    auto unseen = std::find_if(f->evidence.begin(), f->evidence.end(),
                               [&](const EvidenceRef& e) { return !shown.count({e.entry, e.line}); });
    if (cited.size() == kEvidenceLines) break;
    if (unseen == f->evidence.end()) continue;
    shown.emplace(unseen->entry, unseen->line);
    cited.push_back(evidence_line(paths, *unseen, width));
  }
  lines.emplace_back(cited.empty() ? "Evidence: none in the input" : "Evidence:");
  lines.insert(lines.end(), cited.begin(), cited.end());

  size_t serious = static_cast<size_t>(std::count_if(report.findings.begin(), report.findings.end(),
                                                     [](const Finding& f) { return f.severity >= Severity::warning; }));
  lines.push_back(fmt::format("{} finding(s), {} at warning or above; run with --format text for all.",
                              report.findings.size(), serious));
  std::string s;
  for (const std::string& l : lines) s += l + '\n';
  out << s;
}

}  // namespace triage
