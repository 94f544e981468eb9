#include "correlator/passes/finding_groups.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <tuple>

#include "knowledge/finding_groups.h"
#include "model/time.h"

namespace triage {

namespace {

constexpr size_t kOtherEvidence = 3;  // cited lines of other processes; the rest are explained
constexpr size_t kNamedInText = 8;   // other processes named in `observed`

struct Member {
  size_t index;
  int64_t at_us;  // the `within` time, 0 when the rule has none
  int64_t pid;
};

int64_t pid_of(const Finding& f) {
  const std::string* p = f.find_value("pid");
  int64_t v = -1;
  if (p) std::from_chars(p->data(), p->data() + p->size(), v);
  return v;
}

// The key of a finding under a rule; nullopt when a value the rule needs is missing.
std::optional<std::string> group_key(const Finding& f, const FindingGroupRule& r) {
  std::string key = f.host;
  for (const auto& k : r.same) {
    const std::string* v = f.find_value(k);
    if (!v) return std::nullopt;
    key += '\x1f';
    key += *v;
  }
  return key;
}

void end_sentence(std::string& s) {
  if (!s.empty() && s.back() != '.') s += '.';
}

Finding merge(std::vector<Finding>& findings, const std::vector<Member>& members, int seconds) {
  Finding out = findings[members.front().index];
  const size_t max_evidence = out.evidence.size() + kOtherEvidence;
  std::string base_pid = std::to_string(members.front().pid);
  std::string pids, others;
  for (size_t i = 0; i < members.size(); ++i) {
    const Finding& f = findings[members[i].index];
    pids += (i ? "," : "") + std::to_string(members[i].pid);
    out.severity = std::max(out.severity, f.severity);
    if (i == 0) continue;
    if (i <= kNamedInText) {
      int64_t after_ms = (members[i].at_us - members.front().at_us) / 1000;
      // "pids 2, 3" without a window; "pid 2 (+0.002 s), pid 3 (+0.004 s)" with one
      if (seconds > 0)
        others += fmt::format("{}pid {} (+{}.{:03} s)", i > 1 ? ", " : "", members[i].pid,
                              after_ms / 1000, after_ms % 1000);
      else
        others += fmt::format("{}{}", i > 1 ? ", " : "pids ", members[i].pid);
    }
    for (size_t e = 0; e < f.evidence.size(); ++e)
      (e == 0 && out.evidence.size() < max_evidence ? out.evidence : out.explains).push_back(f.evidence[e]);
    out.explains.insert(out.explains.end(), f.explains.begin(), f.explains.end());
    for (const auto& e : f.same_failure)
      if (out.same_failure.size() < Finding::kMaxSameFailure) out.same_failure.push_back(e);
  }
  size_t n = members.size();
  if (n - 1 > kNamedInText) others += fmt::format(" and {} more", n - 1 - kNamedInText);
  std::string who = fmt::format("{} processes (pid {} and {} more)", n, base_pid, n - 1);
  std::string needle = "pid " + base_pid;
  if (size_t at = out.title.find(needle); at != std::string::npos)
    out.title.replace(at, needle.size(), who);
  else
    out.title += fmt::format(" ({} processes)", n);
  end_sentence(out.observed);
  end_sentence(out.does_not_prove);
  out.observed += fmt::format(" The same in {} more process{}{}: {}. The values are pid {}'s.", n - 1,
                              n - 1 == 1 ? "" : "es",
                              seconds > 0 ? fmt::format(" within {} s", seconds) : "", others, base_pid);
  out.does_not_prove += " Grouping says the processes reported the same thing together, not that "
                        "one of them caused it in the others.";
  out.value("pids", pids).value("processes", std::to_string(n));
  return out;
}

}  // namespace

void group_findings_by_cause(const AnalyzeOptions& options, std::vector<Finding>& findings) {
  std::vector<bool> drop(findings.size(), false);
  std::vector<Finding> merged;
  for (const auto& rule : finding_groups_for(options.knowledge_dir)) {
    std::map<std::string, std::vector<Member>> buckets;  // ordered: deterministic
    for (size_t i = 0; i < findings.size(); ++i) {
      const Finding& f = findings[i];
      if (f.id != rule.id || pid_of(f) < 0) continue;
      auto key = group_key(f, rule);
      if (!key) continue;
      int64_t at = 0;
      if (!rule.within.empty()) {
        const std::string* t = f.find_value(rule.within);
        auto us = t ? parse_iso8601_utc_us(*t) : std::nullopt;
        if (!us) continue;
        at = *us;
      }
      buckets[*key].push_back({i, at, pid_of(f)});
    }
    for (auto& [key, members] : buckets) {
      std::sort(members.begin(), members.end(), [](const Member& a, const Member& b) {
        return std::tie(a.at_us, a.pid, a.index) < std::tie(b.at_us, b.pid, b.index);
      });
      // Greedy windows from the earliest report: a later report outside the window starts
      // a group of its own (a second slow step is a second cause).
      for (size_t from = 0; from < members.size();) {
        size_t to = from + 1;
        while (to < members.size() &&
               members[to].at_us - members[from].at_us <= int64_t(rule.seconds) * 1000000)
          ++to;
        if (to - from > 1) {
          std::vector<Member> group(members.begin() + from, members.begin() + to);
          merged.push_back(merge(findings, group, rule.seconds));
          for (const auto& m : group) drop[m.index] = true;
        }
        from = to;
      }
    }
  }
  std::vector<Finding> kept;
  kept.reserve(findings.size());
  for (size_t i = 0; i < findings.size(); ++i)
    if (!drop[i]) kept.push_back(std::move(findings[i]));
  for (auto& m : merged) kept.push_back(std::move(m));
  findings = std::move(kept);
}

}  // namespace triage
