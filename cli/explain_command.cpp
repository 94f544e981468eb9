// `explain ID`: what a finding id or a verdict hypothesis means, what it does not prove and
// how to settle it (knowledge/findings/<area>.tsv, knowledge/verdict/hypotheses.json); signatures
// and error codes fall back to `knowledge explain`. `explain --list` lists every id.
#include <cctype>
#include <algorithm>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/suggest.h"
#include "knowledge/finding_catalogue.h"
#include "knowledge/verdict_rules.h"
#include "knowledge/knowledge.h"
#include "knowledge/source_links.h"

namespace triage::cli {

namespace {

struct Args {
  std::string id;
  bool list = false;
};

// Words wrapped at 100 columns (the catalogue is ASCII), continuation lines indented.
std::string wrap(std::string_view text, size_t indent = 0, size_t width = 100) {
  std::string out, line(indent, ' ');
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view word = text.substr(start, end - start);
    if (line.size() > indent && line.size() + 1 + word.size() > width) {
      out += line + '\n';
      line.assign(indent + 2, ' ');
    } else if (line.size() > indent) {
      line += ' ';
    }
    line += word;
    start = end + 1;
  }
  return out + line;
}

int run_list(const GlobalOptions& g) {
  const auto& catalogue = finding_catalogue_for(g.knowledge_dir);
  std::cout << "findings (" << catalogue.size() << "):\n";
  for (const auto& e : catalogue) std::cout << "  " << e.id << "  [" << e.severity << "]\n";
  const VerdictRules& rules = verdict_rules_for(g.knowledge_dir);
  std::cout << "hypotheses (" << rules.hypotheses.size() << "):\n";
  for (const auto& h : rules.hypotheses) std::cout << "  " << h.id << "  " << h.title << '\n';
  std::cout << "Signatures and error codes: ascend-triage knowledge list\n";
  return kExitClean;
}

void print_rules_for(const VerdictRules& rules, const std::string& id, bool by_finding) {
  bool any = false;
  for (const auto& r : rules.rules) {
    bool hit = by_finding ? std::find(r.findings.begin(), r.findings.end(), id) != r.findings.end()
                          : r.hypothesis == id;
    if (!hit) continue;
    if (!any) std::cout << (by_finding ? "\nIn the verdict:\n" : "\nRules:\n");
    any = true;
    const char* effect = r.effect == RuleEffect::supports      ? "supports"
                         : r.effect == RuleEffect::contradicts ? "contradicts"
                                                               : "is explained by";
    std::string what = r.missing.empty() ? "" : "missing " + r.missing;
    for (const auto& f : r.findings) what += (what.empty() ? "" : ", ") + f;
    if (by_finding) std::cout << "  " << effect << ' ' << r.hypothesis;
    else std::cout << "  " << effect << ": " << what;
    if (r.effect != RuleEffect::consequence) std::cout << " (weight " << r.weight << ')';
    std::cout << '\n' << wrap(r.why, 4) << '\n';
  }
}

// A finding's texts name its values as {placeholders} the report fills; explain has no
// finding, so it shows them as the <value> a reader substitutes.
std::string unfilled(std::string text) {
  for (size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
    size_t close = text.find('}', open);
    if (close == std::string::npos) break;
    bool name = close > open + 1;
    for (size_t i = open + 1; i < close; ++i)
      name = name && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_');
    if (!name) continue;
    text[open] = '<';
    text[close] = '>';
  }
  return text;
}

// The public pages the id rests on (knowledge/finding-sources.tsv, an error code's sources).
void print_links(const GlobalOptions& g, std::string_view id) {
  auto links = finding_links(g.knowledge_dir, id);
  if (links.empty()) return;
  std::cout << "\nlinks:\n";
  for (const auto& l : links) std::cout << "  " << l.url << '\n' << wrap(l.what, 4) << '\n';
}

int run_explain(const Args& a, const GlobalOptions& g) {
  const auto& catalogue = finding_catalogue_for(g.knowledge_dir);
  const VerdictRules& rules = verdict_rules_for(g.knowledge_dir);
  if (const auto* e = find_catalogue_entry(catalogue, a.id)) {
    std::cout << e->id << "  [finding, " << e->severity << "]\n\n"
              << wrap(unfilled(e->meaning)) << "\n\n"
              << wrap(unfilled("Does not prove: " + (e->does_not_prove.empty() ? "(informational)" : e->does_not_prove)))
              << "\n\n" << wrap(unfilled("How to settle: " + e->how_to_settle)) << '\n';
    print_rules_for(rules, e->id, true);
    print_links(g, e->id);
    return kExitClean;
  }
  if (const auto* h = rules.find(a.id)) {
    std::cout << h->id << "  [verdict hypothesis]\n\n" << wrap(h->title) << "\n\n"
              << wrap("Does not prove: " + h->does_not_prove) << "\n\n"
              << wrap("How to settle: " + h->confirm_description) << '\n';
    if (!h->confirm_command.empty()) std::cout << "  " << h->confirm_command << '\n';
    print_rules_for(rules, h->id, false);
    print_links(g, h->id);
    return kExitClean;
  }
  // Signatures and error codes: the knowledge base's own explanation.
  const KnowledgeBase& kb = knowledge_for(g.knowledge_dir);
  bool found = false;
  if (const Signature* s = kb.find_signature(a.id)) {
    found = true;
    std::cout << s->id << "  [signature, " << s->severity << "]\n\n" << wrap(s->title) << "\n\n"
              << wrap(s->explanation) << "\n\nHow to settle:\n";
    for (const auto& n : s->next_steps) std::cout << "  - " << n << '\n';
  }
  for (const auto& c : kb.error_codes)
    if (c.code == a.id) {
      found = true;
      std::cout << c.code << "  [error code, " << c.kind << "] " << c.name << "\n  meaning:    " << c.meaning
                << "\n  component:  " << c.component << "\n  class:      " << c.failure_class
                << "\n  next check: " << c.next_check << "\n  source:     " << c.source << '\n';
    }
  if (found) {
    print_links(g, a.id);
    return kExitClean;
  }
  std::vector<std::string> ids;
  for (const auto& e : catalogue) ids.push_back(e.id);
  for (const auto& h : rules.hypotheses) ids.push_back(h.id);
  for (const auto& s : kb.signatures) ids.push_back(s.id);
  for (const auto& c : kb.error_codes) ids.push_back(c.code);
  std::string near = nearest_name(a.id, ids);
  std::cerr << "ascend-triage: no finding, hypothesis, signature or error code '" << a.id << "'"
            << (near.empty() ? "" : "; did you mean '" + near + "'?") << " (explain --list lists them)\n";
  return kExitCannotAnalyse;
}

}  // namespace

Command add_explain_command(CLI::App& app, GlobalOptions&) {
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "explain", "What a finding id or hypothesis means, what it does not prove, how to settle it");
  cmd->add_option("id", args->id, "Finding id, hypothesis id, signature id or error code");
  cmd->add_flag("--list", args->list, "List every finding and hypothesis id");
  auto run = [args](const GlobalOptions& g) {
    if (args->list) return run_list(g);
    if (args->id.empty()) {
      std::cerr << "ascend-triage: explain needs an ID or --list\n";
      return kExitCannotAnalyse;
    }
    return run_explain(*args, g);
  };
  return {cmd, run};
}

}  // namespace triage::cli
