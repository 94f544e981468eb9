#include "compare/chain_diff.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "compare/chain_items.h"
#include "compare/chain_processes.h"
#include "compare/chain_judge.h"

namespace triage {
namespace {

using Key = std::pair<ChainLayer, std::string>;

std::map<Key, const ChainItem*> index_of(const std::vector<ChainItem>& items) {
  std::map<Key, const ChainItem*> m;
  for (const auto& i : items) m.emplace(Key{i.layer, i.item}, &i);
  return m;
}

bool mentions(const Finding& f, const std::string& token) {
  if (f.title.find(token) != std::string::npos || f.observed.find(token) != std::string::npos) return true;
  for (const auto& [k, v] : f.values)
    if (k == token || v.find(token) != std::string::npos) return true;
  for (const auto& e : f.evidence)
    if (e.excerpt.find(token) != std::string::npos) return true;
  return false;
}

// `text` occurs in `v` not followed by a name character ("updates/drv_devmm_host" is not in
// "updates/drv_devmm_host_agent").
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool holds(const std::string& v, const std::string& text) {
  if (text.empty()) return false;
  for (size_t at = v.find(text); at != std::string::npos; at = v.find(text, at + 1)) {
    size_t end = at + text.size();
    if (!is_name_char(text.back()) || end == v.size() || !is_name_char(v[end])) return true;
  }
  return false;
}

// The finding cites the item's source line (and, for a line of many items, mentions it), or
// one of its values names the item (compare/chain_items.cpp: module sets and build ids).
bool names(const Finding& f, const ChainItem& item) {
  for (const auto& e : f.evidence)
    for (const auto& mine : item.evidence)
      if (e.line == mine.line && e.entry == mine.entry && (item.token.empty() || mentions(f, item.token)))
        return true;
  for (const auto& m : item.marks)
    for (const auto& [k, v] : f.values)
      if ((k == m.key || (m.key.ends_with('.') && k.starts_with(m.key))) && holds(v, m.text))
        return true;
  return false;
}

void cite(ChainChange& c, const ChainItem* cur, const std::vector<Finding>& findings) {
  if (!cur) return;
  std::set<std::string> seen;
  for (const auto& f : findings) {
    if (!names(f, *cur) || !seen.insert(f.id).second) continue;
    c.cited_by.push_back(f.id);
    if (f.severity >= Severity::warning && !c.breaking) {
      c.breaking = true;
      c.why = "cited by finding " + f.id + " (" + std::string(to_string(f.severity)) + ")";
    }
  }
}

}  // namespace

ChainDiff diff_chains(const Chain& base, const Chain& cur, const std::vector<Finding>& findings,
                      const VersionTables& tables) {
  ChainDiff d;
  d.baseline = base.input;
  d.current = cur.input;
  d.process_matching = std::string(kProcessMatching);
  std::vector<ChainItem> bi = chain_items(base), ci = chain_items(cur);
  auto bm = index_of(bi), cm = index_of(ci);
  std::set<Key> keys;
  for (const auto& [k, _] : bm) keys.insert(k);
  for (const auto& [k, _] : cm) keys.insert(k);
  std::vector<IncompatiblePair> bad = incompatible_pairs(cur, tables);
  for (const Key& k : keys) {
    auto b = bm.find(k);
    auto c = cm.find(k);
    const ChainItem* before = b == bm.end() ? nullptr : b->second;
    const ChainItem* after = c == cm.end() ? nullptr : c->second;
    if (before && after && before->value == after->value) continue;
    ChainChange ch;
    ch.layer = k.first;
    ch.item = k.second;
    ch.before = before ? before->value : "";
    ch.after = after ? after->value : "";
    cite(ch, after, findings);
    if (!ch.breaking)
      for (const auto& p : bad)
        if (std::find(p.items.begin(), p.items.end(), ch.item) != p.items.end()) {
          ch.breaking = true;
          ch.why = p.reason;
          break;
        }
    d.changes.push_back(std::move(ch));
  }
  std::stable_sort(d.changes.begin(), d.changes.end(), [](const auto& x, const auto& y) {
    bool xc = !x.cited_by.empty(), yc = !y.cited_by.empty();
    if (xc != yc) return xc;
    return std::tie(x.layer, x.item) < std::tie(y.layer, y.item);
  });
  return d;
}

}  // namespace triage
