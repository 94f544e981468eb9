// The findings of `analyze --format md`: those above info in full (within the limits), those
// at info folded into a count in a collapsed <details> section. A field worded exactly as an
// earlier finding's says so instead of repeating it, and an evidence line quoted already
// names the finding it is quoted under.
#include <fmt/format.h>

#include <iterator>
#include <map>
#include <utility>

#include "knowledge/source_links.h"
#include "reports/also_read_as.h"
#include "reports/markdown_escape.h"
#include "reports/markdown_parts.h"
#include "reports/text_sections.h"

namespace triage::md {
namespace {

// The first finding (by number) that printed each wording of a field, and where each
// evidence line was quoted first.
struct Seen {
  std::map<std::string, size_t> supports, does_not_prove, next_checks;
  std::map<std::pair<std::string_view, uint64_t>, size_t> quoted;
};

// "- **Supports:** text", or "as F3." when F3 printed the same words.
void field(std::string& out, std::string_view label, const std::string& text, size_t number,
           std::map<std::string, size_t>& seen, const Limits& limits, Cuts& cuts) {
  if (text.empty()) return;
  auto [it, first] = seen.emplace(text, number);
  if (!first) {
    fmt::format_to(std::back_inserter(out), "- **{}** as F{}.\n", label, it->second);
    return;
  }
  out += "- **" + std::string(label) + "** " + prose(shorten(text, limits.prose, cuts)) + "\n";
}

void next_checks(std::string& out, const Finding& f, size_t number, Seen& seen) {
  if (f.next_checks.empty()) return;
  std::string key;
  for (const auto& c : f.next_checks) key += c + '\n';
  auto [it, first] = seen.next_checks.emplace(key, number);
  if (!first) {
    fmt::format_to(std::back_inserter(out), "- **Next checks:** as F{}.\n", it->second);
    return;
  }
  out += "- **Next checks:**\n";
  for (const auto& c : f.next_checks) {
    auto [text_part, command] = text::split_command(c);
    out += "  - " +
           (text_part.empty() ? code(command) : prose(text_part) + (command.empty() ? "" : " " + code(command))) +
           "\n";
  }
}

void evidence(std::string& out, const std::vector<EvidenceRef>& refs, std::string_view label, size_t number,
              const EvidencePaths& paths, Seen& seen, const Limits& limits, Cuts& cuts) {
  if (refs.empty()) return;
  out += std::string(label) + "\n\n";
  size_t shown = std::min(refs.size(), limits.evidence);
  for (size_t i = 0; i < shown; ++i) {
    const EvidenceRef& e = refs[i];
    out += "> " + code(paths.where(e));
    auto [it, first] = seen.quoted.emplace(std::make_pair(std::string_view(e.entry), e.line), number);
    if (!first && it->second != number) {
      fmt::format_to(std::back_inserter(out), " (quoted under F{})\n\n", it->second);
      continue;
    }
    out += "\n";
    if (!e.excerpt.empty()) out += fenced(e.excerpt, "> ");
    out += "\n";
  }
  if (shown < refs.size()) {
    fmt::format_to(std::back_inserter(out), "{} more line(s) not shown.\n\n", refs.size() - shown);
    cuts.evidence += refs.size() - shown;
  }
}

// "- **Rests on:** [docs.redhat.com](url)": the first public page the finding rests on
// (knowledge/finding-sources.tsv), named by its site to keep the ticket short; the HTML report
// and `explain` give every page with what it says. URLs come from the knowledge, never a bundle.
void rests_on(std::string& out, const Finding& f, const std::string& knowledge_dir) {
  std::vector<Link> links = finding_links(knowledge_dir, f.id);
  if (links.empty()) return;
  std::string url;
  for (char c : links.front().url) url += c == '(' ? "%28" : c == ')' ? "%29" : std::string(1, c);
  std::string_view site = std::string_view(links.front().url).substr(std::string_view("https://").size());
  site = site.substr(0, site.find('/'));
  fmt::format_to(std::back_inserter(out), "- **Rests on:** [{}]({})", prose(std::string(site)), url);
  if (links.size() > 1)
    fmt::format_to(std::back_inserter(out), " and {} more (`ascend-triage explain {}`)", links.size() - 1, f.id);
  out += '\n';
}

// "- **Also read as:** `id`: title; ...": other findings of the same event, folded into this one.
void also_read_as(std::string& out, const Finding& f, const Limits& limits, Cuts& cuts) {
  if (!f.find_value(kAlsoReadAsValue)) return;
  out += "- **Also read as:** ";
  bool first = true;
  for (const auto& a : also_read_as_by_id(f)) {
    out += first ? "" : "; ";
    first = false;
    out += code(a.id);
    if (a.count > 1) fmt::format_to(std::back_inserter(out), " ({} findings, e.g. ", a.count);
    else if (!a.title.empty()) out += ": ";
    out += prose(shorten(a.title, std::min<size_t>(limits.prose, 300), cuts));
    if (a.count > 1) out += ')';
  }
  out += '\n';
}

void full_finding(std::string& out, size_t number, const Finding& f, const EvidencePaths& paths, Seen& seen,
                  const Limits& limits, Cuts& cuts, const std::string& knowledge_dir) {
  fmt::format_to(std::back_inserter(out), "### F{} {} ({}, {} confidence)\n\n", number, code(f.id),
                 to_string(f.severity), to_string(f.confidence));
  if (!f.title.empty()) out += "**" + prose(shorten(f.title, limits.prose, cuts)) + "**\n\n";
  if (!f.host.empty()) out += "- **Host:** " + code(f.host) + "\n";
  if (!f.observed.empty()) out += "- **Observed:** " + prose(shorten(f.observed, limits.prose, cuts)) + "\n";
  if (const std::string* facts = f.find_value("facts")) out += "- **Facts:** " + prose(shorten(*facts, limits.prose, cuts)) + "\n";
  field(out, "Supports:", f.supports, number, seen.supports, limits, cuts);
  field(out, "Does not prove:", f.does_not_prove, number, seen.does_not_prove, limits, cuts);
  also_read_as(out, f, limits, cuts);
  next_checks(out, f, number, seen);
  rests_on(out, f, knowledge_dir);
  out += '\n';
  evidence(out, f.evidence, "Evidence:", number, paths, seen, limits, cuts);
  evidence(out, f.same_failure, "Same failure (from another layer, accounted for):", number, paths, seen, limits,
           cuts);
}

// "- F9 `id` (info, high confidence): title; `path:line`": the finding folded to one line.
void short_finding(std::string& out, size_t number, const Finding& f, const EvidencePaths& paths,
                   const Limits& limits, Cuts& cuts) {
  fmt::format_to(std::back_inserter(out), "- F{} {} ({}, {} confidence)", number, code(f.id), to_string(f.severity),
                 to_string(f.confidence));
  if (!f.title.empty()) out += ": " + prose(shorten(f.title, std::min<size_t>(limits.prose, 300), cuts));
  if (!f.evidence.empty()) out += "; " + code(paths.where(f.evidence.front()));
  out += '\n';
}

}  // namespace

std::string shorten(const std::string& text, size_t max, Cuts& cuts) {
  if (text.size() <= max) return text;
  ++cuts.shortened;
  size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a code point
  size_t space = text.rfind(' ', cut);
  if (space != std::string::npos && space > max / 2) cut = space;
  return text.substr(0, cut) + " ...";
}

void findings(Doc& doc, const Report& report, const EvidencePaths& paths, const Limits& limits, Cuts& cuts,
              size_t bundles_done, const std::string& knowledge_dir) {
  std::string& out = doc.text;
  fmt::format_to(std::back_inserter(out), "## Findings ({})\n\n", report.findings.size());
  if (report.findings.empty()) out += "No finding.\n\n";
  else if (paths.has_inputs()) out += std::string(kShowHint) + "\n\n";
  Seen seen;
  std::vector<size_t> info;
  size_t detailed = 0, done = 0;
  bool listing = false;  // writing one-line findings
  for (size_t i = 0; i < report.findings.size(); ++i) {
    const Finding& f = report.findings[i];
    if (f.severity == Severity::info) {
      info.push_back(i);
      continue;
    }
    if (detailed < limits.detailed) {
      full_finding(out, i + 1, f, paths, seen, limits, cuts, knowledge_dir);
      ++detailed;
    } else {
      short_finding(out, i + 1, f, paths, limits, cuts);
      ++cuts.findings_short;
      listing = true;
    }
    doc.mark("", cuts, ++done, bundles_done);
  }
  if (listing) out += '\n';
  if (info.empty()) return;
  // Findings at info: context, not faults; folded so the faults come first in a ticket.
  fmt::format_to(std::back_inserter(out), "<details>\n<summary>{} finding(s) at info: F{}{}</summary>\n\n",
                 info.size(), info.front() + 1,
                 info.size() > 1 ? fmt::format(" to F{}", info.back() + 1) : std::string());
  for (size_t i : info) {
    if (limits.info_in_full) {
      full_finding(out, i + 1, report.findings[i], paths, seen, limits, cuts, knowledge_dir);
    } else {
      short_finding(out, i + 1, report.findings[i], paths, limits, cuts);
      ++cuts.info_short;
    }
    doc.mark(limits.info_in_full ? "</details>\n\n" : "\n</details>\n\n", cuts, ++done, bundles_done);
  }
  out += limits.info_in_full ? "</details>\n\n" : "\n</details>\n\n";
}

}  // namespace triage::md
