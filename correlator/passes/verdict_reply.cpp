#include "correlator/passes/verdict_reply.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <utility>

#include "correlator/passes/reply_places.h"
#include "model/strings.h"

namespace triage {
namespace {

constexpr std::string_view kNamed = "Start with what the lines name: ";  // verdict.cpp's named places
constexpr std::string_view kNoFault = "No fault found: nothing in what was read is at warning or above.";

// The first sentence of `s`: up to a ". " before a capital letter outside a `code span`.
std::string first_sentence(std::string_view s) {
  bool code = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '`') code = !code;
    if (!code && s[i] == '.' && i + 2 < s.size() && s[i + 1] == ' ' && is_upper(s[i + 2]))
      return std::string(s.substr(0, i + 1));
  }
  return std::string(s);
}

std::string sentence(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '.')) s.pop_back();
  if (!s.empty() && s.front() >= 'a' && s.front() <= 'z') s.front() = static_cast<char>(s.front() - 'a' + 'A');
  return s.empty() ? s : s + ".";
}

// Words for the customer: a code span that holds a command (a space, a pipe, a `$`) goes,
// with the parentheses or "run" around it; a name in backticks stays, as plain text.
std::string without_commands(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '`') {
      out += s[i];
      continue;
    }
    size_t end = s.find('`', i + 1);
    if (end == std::string_view::npos) break;
    std::string_view span = s.substr(i + 1, end - i - 1);
    if (span.find_first_of(" |$;") == std::string_view::npos) out += span;
    i = end;
  }
  // What removing a span leaves behind: "()", "( )", ": ." and doubled spaces.
  constexpr std::pair<std::string_view, std::string_view> kFixes[] = {
      {" ()", ""}, {"()", ""}, {" ( )", ""}, {" (, )", ""}, {": .", "."}, {" ,", ","}, {"  ", " "}};
  for (const auto& fix : kFixes)
    for (size_t at; (at = out.find(fix.first)) != std::string::npos;)
      out = out.substr(0, at) + std::string(fix.second) + out.substr(at + fix.first.size());
  while (!out.empty() && (out.back() == ' ' || out.back() == ':' || out.back() == ',')) out.pop_back();
  return out;
}

// `text` wrapped at kReplyColumns, at most `budget` lines; the last one ends in "..." when cut.
std::vector<std::string> wrap(std::string_view text, size_t budget) {
  std::vector<std::string> lines;
  std::string line;
  for (std::string_view word : split(text, ' ')) {
    if (word.empty()) continue;
    if (!line.empty() && line.size() + 1 + word.size() > kReplyColumns) {
      lines.push_back(std::move(line));
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
    while (line.size() > kReplyColumns) {  // a word wider than a line (a path): split it
      lines.push_back(line.substr(0, kReplyColumns));
      line.erase(0, kReplyColumns);
    }
  }
  if (!line.empty()) lines.push_back(std::move(line));
  if (lines.size() > budget) {
    lines.resize(budget);
    std::string& last = lines.back();
    while (last.size() + 4 > kReplyColumns && last.find(' ') != std::string::npos) last.erase(last.rfind(' '));
    last += " ...";
  }
  return lines;
}

// "Most likely cause: TITLE (medium confidence)." (the host is on the "Where" line), the
// title's parenthesis dropped when the line would not fit in one.
std::string cause_line(const Hypothesis& top) {
  auto line = [&](std::string_view title) {
    return fmt::format("Most likely cause: {} ({} confidence).", title, to_string(top.confidence));
  };
  std::string s = line(top.title);
  size_t paren = top.title.rfind(" (");
  if (s.size() > kReplyColumns && paren != std::string::npos && top.title.back() == ')')
    s = line(std::string_view(top.title).substr(0, paren));
  return s;
}

// `text` in at most `budget` lines: whole, else its first clause (up to "; ") as a sentence,
// else cut with "...".
std::vector<std::string> fit(const std::string& text, size_t budget) {
  std::vector<std::string> lines = wrap(text, budget + 1);
  if (lines.size() <= budget) return lines;
  for (std::string_view sep : {"; ", ": ", ", "})
    if (size_t clause = text.find(sep, text.find(": ") + 2); clause != std::string::npos) {  // after "Next: "
      lines = wrap(text.substr(0, clause) + ".", budget + 1);
      if (lines.size() <= budget) return lines;
    }
  return wrap(text, budget);
}

// The wait graph's root on `host`, when other ranks waited on it (collective/wait-root).
const Finding* wait_root_on(const std::vector<Finding>& findings, std::string_view host) {
  for (const Finding& f : findings) {
    if (f.id != "collective/wait-root" || f.host != host) continue;
    const std::string* waiters = f.find_value("waiters");
    const std::string* root = f.find_value("root");
    if (waiters != nullptr && root != nullptr && !root->empty() && *waiters != "0" && !waiters->empty()) return &f;
  }
  return nullptr;
}

std::vector<size_t> findings_of(const Hypothesis& top) {
  std::vector<size_t> out;
  for (const auto* links : {&top.supporting, &top.consequences})
    for (const FindingLink& l : *links)
      if (std::find(out.begin(), out.end(), l.index) == out.end()) out.push_back(l.index);
  return out;
}

// The next action in words: the next check's first sentence (without the places the lines
// name, which the "Where" line carries), or the collection when nothing else says more.
std::string action_of(const Verdict& v) {
  std::string d = v.next_check.description;
  if (d.rfind(kNamed, 0) == 0) {
    size_t end = d.find(". ");
    d = end == std::string::npos ? std::string() : d.substr(end + 2);
  }
  std::string s = without_commands(first_sentence(d));
  if (!s.empty()) return "Next: " + sentence(s);
  if (!v.collect_more.empty())
    return "Next: run the collector on the host and send its bundle (the command is under \"Next check\").";
  return {};
}

}  // namespace

std::string verdict_reply(const Verdict& v, const std::vector<Finding>& findings, const Timeline& timeline,
                          const RanksByProcess& ranks, const LineTimes& times) {
  bool any_warning = std::any_of(findings.begin(), findings.end(),
                                 [](const Finding& f) { return f.severity >= Severity::warning; });
  if (v.ranked.empty()) return any_warning ? std::string() : std::string(kNoFault);
  const Hypothesis& top = v.ranked.front();
  std::vector<std::string> lines;
  std::vector<size_t> about;  // the findings the reply speaks of
  std::string host = top.host;
  if (top.id != "insufficient-evidence") {
    lines = fit(cause_line(top), 2);
    about = findings_of(top);
  } else {
    for (size_t i = 0; i < findings.size(); ++i)
      if (findings[i].severity >= Severity::warning) about.push_back(i);
    if (about.empty()) return std::string(kNoFault);
    std::stable_sort(about.begin(), about.end(),
                     [&](size_t a, size_t b) { return findings[a].severity > findings[b].severity; });
    const Finding& worst = findings[about.front()];
    if (host.empty()) host = worst.host;
    std::string first = fmt::format("No cause named yet. Most severe seen ({}): {}.", to_string(worst.severity),
                                    worst.title);
    // Where and when start with the failure the runner-up of the same host stands on (issue 36:
    // a fleet origin's bare exception names no cause, yet it is the failure to read).
    for (const Hypothesis& h : v.ranked)
      if (&h != &top && h.host == top.host && !h.supporting.empty() && h.score > 0) {
        std::vector<size_t> own;
        for (const FindingLink& l : h.supporting)
          if (l.index < findings.size() && findings[l.index].severity >= Severity::warning &&
              std::find(own.begin(), own.end(), l.index) == own.end())
            own.push_back(l.index);
        // The ranks waited on this host (issue 37): the reply names the rank the wait graph
        // roots at and that rank's own failure, as `fleet` names the origin, and only them.
        if (const Finding* root = wait_root_on(findings, top.host); root != nullptr && !own.empty()) {
          first = fmt::format("No cause named yet. {} ranks waited on {}; its failure ({}): {}.",
                              *root->find_value("waiters"), *root->find_value("root"),
                              to_string(findings[own.front()].severity), findings[own.front()].title);
          about = std::move(own);
          break;
        }
        for (size_t i : about)  // then the rest, most severe first
          if (std::find(own.begin(), own.end(), i) == own.end()) own.push_back(i);
        about = std::move(own);
        break;
      }
    lines = fit(first, 2);
  }
  ReplyPlaces places = reply_places(findings, about, timeline, host, ranks, times);
  if (const std::string& d = v.next_check.description; d.rfind(kNamed, 0) == 0)  // "peer 90.90.92.240/1"
    places.named = d.substr(kNamed.size(), d.find(". ") == std::string::npos ? std::string::npos
                                                                             : d.find(". ") - kNamed.size());
  for (const std::string& s : {where_line(places), when_line(places)})
    if (!s.empty()) lines.push_back(s);  // one line each (reply_places.h)
  size_t left = kReplyLines - std::min(kReplyLines, lines.size());
  if (std::string next = action_of(v); !next.empty() && left > 0)
    for (std::string& l : fit(next, left)) lines.push_back(std::move(l));
  if (top.id != "insufficient-evidence" && !top.does_not_prove.empty() && lines.size() < kReplyLines) {
    std::string limit = "Not proven: " + sentence(first_sentence(without_commands(top.does_not_prove)));
    if (limit.size() <= kReplyColumns) lines.push_back(std::move(limit));
  }
  return fmt::format("{}", fmt::join(lines, "\n"));
}

}  // namespace triage
