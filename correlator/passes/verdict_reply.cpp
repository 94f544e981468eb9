#include "correlator/passes/verdict_reply.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace triage {
namespace {

constexpr size_t kReasons = 3;       // supporting reasons named
constexpr size_t kConsequences = 2;  // explained findings named

std::string sentence(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '.')) s.pop_back();
  if (!s.empty() && s.front() >= 'a' && s.front() <= 'z') s.front() = static_cast<char>(s.front() - 'a' + 'A');
  return s.empty() ? s : s + ".";
}

std::string title_of(const FindingLink& l, const std::vector<Finding>& findings) {
  return l.index < findings.size() ? findings[l.index].title : l.id;
}

// The distinct `why` texts of the links, in order.
std::vector<std::string> reasons(const std::vector<FindingLink>& links) {
  std::vector<std::string> out;
  for (const auto& l : links)
    if (!l.why.empty() && std::find(out.begin(), out.end(), l.why) == out.end()) out.push_back(l.why);
  return out;
}

std::string next_check(const NextCheck& n) {
  if (n.description.empty() && n.command.empty()) return {};
  std::string s = "Next check: " + n.description;
  while (!s.empty() && (s.back() == '.' || s.back() == ' ')) s.pop_back();
  if (!n.command.empty()) s += fmt::format(" (`{}`)", n.command);
  return s + ".";
}

}  // namespace

std::string verdict_reply(const Verdict& v, const std::vector<Finding>& findings) {
  bool any_warning = std::any_of(findings.begin(), findings.end(),
                                 [](const Finding& f) { return f.severity >= Severity::warning; });
  if (v.ranked.empty())
    return any_warning ? std::string() : "No fault found: nothing in what was read is at warning or above.";
  const Hypothesis& top = v.ranked.front();
  std::string s;
  if (top.id != "insufficient-evidence") {
    s = fmt::format("Most likely cause{}: {} ({} confidence).", top.host.empty() ? "" : " on " + top.host, top.title,
                    to_string(top.confidence));
    std::vector<std::string> why = reasons(top.supporting);
    if (why.size() > kReasons) why.resize(kReasons);
    if (!why.empty()) s += fmt::format(" What points to it: {}.", fmt::join(why, "; "));
    std::vector<std::string> explained;
    for (const auto& c : top.consequences) {
      std::string t = title_of(c, findings);
      if (explained.size() < kConsequences && std::find(explained.begin(), explained.end(), t) == explained.end())
        explained.push_back(t);
    }
    if (!explained.empty())
      s += fmt::format(" It also accounts for what the job showed: {}{}.", fmt::join(explained, "; "),
                       top.consequences.size() > explained.size() ? "; and more" : "");
    if (std::string n = next_check(v.next_check); !n.empty()) s += " " + n;
    if (!top.does_not_prove.empty()) s += " Not proven: " + sentence(top.does_not_prove);
    return s;
  }
  std::vector<const Finding*> seen;
  for (const auto& f : findings)
    if (f.severity >= Severity::warning) seen.push_back(&f);
  if (seen.empty()) return "No fault found: nothing in what was read is at warning or above.";
  std::stable_sort(seen.begin(), seen.end(), [](const Finding* a, const Finding* b) { return a->severity > b->severity; });
  std::vector<std::string> titles;
  for (const Finding* f : seen)
    if (titles.size() < kReasons && std::find(titles.begin(), titles.end(), f->title) == titles.end())
      titles.push_back(f->title);
  s = fmt::format("The evidence does not name a cause yet. Seen: {}.", fmt::join(titles, "; "));
  if (!v.collect_more.empty()) s += fmt::format(" To decide, collect: `{}`.", v.collect_more.front());
  else if (std::string n = next_check(v.next_check); !n.empty()) s += " " + n;
  return s;
}

}  // namespace triage
