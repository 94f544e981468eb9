#include "correlator/passes/same_event.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <string>
#include <utility>

#include "knowledge/same_event.h"

namespace triage {

namespace {

using LineKey = std::pair<std::string, uint64_t>;  // entry, line

bool cites(const Finding& f, const EvidenceRef& e) {
  for (const auto& c : f.evidence)
    if (c.line == e.line && c.entry == e.entry) return true;
  return false;
}

// Whether `fold` is folded into `keep`: a listed pair, one host, `keep` ranked higher (severity,
// then the row's keep column), and the folded finding's leading evidence line cited by `keep`.
bool folds_into(const std::vector<SameEventRule>& rules, const Finding& keep, const Finding& fold) {
  if (keep.host != fold.host || fold.evidence.empty() || fold.evidence.front().line == 0) return false;
  if (keep.severity < fold.severity) return false;
  bool listed = false;
  for (const auto& r : rules) {
    if (r.keep == keep.id && r.fold == fold.id) listed = true;
    // the row's fold side kept only when it outranks the keep side by severity
    if (r.keep == fold.id && r.fold == keep.id && keep.severity > fold.severity) listed = true;
  }
  return listed && cites(keep, fold.evidence.front());
}

// `seen`: the lines the finding kept cites or explains so far (one set per keeper, not per fold).
void absorb(Finding& keep, Finding& fold, std::set<LineKey>& seen) {
  std::string title = fold.title;  // the separator never inside a field
  std::replace(title.begin(), title.end(), '\t', ' ');
  keep.value(std::string(kAlsoReadAsValue), fold.id + '\t' + title + '\t' + fold.observed);
  // The folded reading's lines are explained by the finding kept, not lost.
  for (auto* list : {&fold.evidence, &fold.explains})
    for (auto& e : *list)
      if (e.line != 0 && seen.emplace(e.entry, e.line).second) keep.explains.push_back(std::move(e));
  for (auto& e : fold.same_failure)
    if (keep.same_failure.size() < Finding::kMaxSameFailure && seen.emplace(e.entry, e.line).second)
      keep.same_failure.push_back(std::move(e));
}

void remap(std::vector<FindingLink>& links, const std::vector<size_t>& to, const std::vector<Finding>& kept) {
  std::vector<FindingLink> out;
  std::set<size_t> seen;
  for (auto& l : links) {
    if (l.index >= to.size()) {
      out.push_back(std::move(l));  // not a finding of this report: left as it was
      continue;
    }
    l.index = to[l.index];
    l.id = kept[l.index].id;
    if (seen.insert(l.index).second) out.push_back(std::move(l));
  }
  links = std::move(out);
}

// The events of a folded finding's lines name the finding kept instead: one pass over the
// events, the folded findings' lines looked up.
void rename_events(const std::vector<Finding>& findings, const std::vector<size_t>& keeper, Timeline& timeline) {
  const size_t n = findings.size();
  std::map<std::pair<std::string_view, uint64_t>, std::vector<size_t>> folded_lines;
  for (size_t f = 0; f < n; ++f)
    if (keeper[f] != n)
      for (const auto& e : findings[f].evidence)
        if (e.line != 0) folded_lines[{e.entry, e.line}].push_back(f);
  for (auto& e : timeline.events) {
    auto it = folded_lines.find({e.evidence.entry, e.evidence.line});
    if (it == folded_lines.end()) continue;
    for (size_t f : it->second) {
      const Finding& fold = findings[f];
      if (e.host != fold.host) continue;
      const std::string& keep_id = findings[keeper[f]].id;
      auto& ids = e.finding_ids;
      auto at = std::find(ids.begin(), ids.end(), fold.id);
      if (at == ids.end()) continue;
      if (std::find(ids.begin(), ids.end(), keep_id) == ids.end())
        *at = keep_id;
      else
        ids.erase(at);
    }
  }
}

}  // namespace

void fold_same_event(const AnalyzeOptions& options, std::vector<Finding>& findings, Verdict& verdict,
                     Timeline& timeline) {
  const auto& rules = same_event_rules_for(options.knowledge_dir);
  if (rules.empty() || findings.size() < 2) return;
  const size_t n = findings.size();
  auto listed = [&rules](const std::string& id) {
    for (const auto& r : rules)
      if (r.keep == id || r.fold == id) return true;
    return false;
  };
  // The findings a row names, by their leading line: a keeper looks up only its own lines
  // (thousands of per-process findings in a storm stay linear).
  std::map<std::pair<std::string_view, uint64_t>, std::vector<size_t>> by_lead;
  for (size_t i = 0; i < n; ++i) {
    const Finding& f = findings[i];
    if (!f.evidence.empty() && f.evidence.front().line != 0 && listed(f.id))
      by_lead[{f.evidence.front().entry, f.evidence.front().line}].push_back(i);
  }
  if (by_lead.empty()) return;
  std::vector<size_t> keeper(n, n);  // n = not folded
  std::vector<bool> keeps(n, false);
  // In report order: the higher-ranked finding keeps first; a keeper is never folded itself.
  for (size_t k = 0; k < n; ++k) {
    if (keeper[k] != n || !listed(findings[k].id)) continue;
    for (const auto& e : findings[k].evidence) {
      auto it = by_lead.find({e.entry, e.line});
      if (it == by_lead.end()) continue;
      for (size_t f : it->second) {
        if (f == k || keeper[f] != n || keeps[f] || !folds_into(rules, findings[k], findings[f])) continue;
        keeper[f] = k;
        keeps[k] = true;
      }
    }
  }
  if (std::find(keeps.begin(), keeps.end(), true) == keeps.end()) return;
  rename_events(findings, keeper, timeline);  // before absorb takes the folded lines
  std::vector<std::vector<size_t>> folded(n);
  for (size_t f = 0; f < n; ++f)
    if (keeper[f] != n) folded[keeper[f]].push_back(f);
  for (size_t k = 0; k < n; ++k) {
    if (folded[k].empty()) continue;
    std::set<LineKey> seen;
    for (const auto& e : findings[k].evidence) seen.emplace(e.entry, e.line);
    for (const auto& e : findings[k].explains) seen.emplace(e.entry, e.line);
    for (size_t f : folded[k]) absorb(findings[k], findings[f], seen);
  }
  std::vector<size_t> to(n);
  std::vector<Finding> kept;
  kept.reserve(n);
  for (size_t i = 0; i < n; ++i)
    if (keeper[i] == n) {
      to[i] = kept.size();
      kept.push_back(std::move(findings[i]));
    }
  for (size_t i = 0; i < n; ++i)
    if (keeper[i] != n) to[i] = to[keeper[i]];
  findings = std::move(kept);
  for (auto& h : verdict.ranked) {
    remap(h.supporting, to, findings);
    remap(h.contradicting, to, findings);
    remap(h.consequences, to, findings);
  }
}

}  // namespace triage
