#include "parsers/plog/plog_process_fold.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "parsers/common/log_text.h"
#include "parsers/plog/plog_parser.h"

namespace triage {

namespace {

// UTC where the process's zone is known, else the local time as written (one process's lines
// share a zone, so either orders them); a line without a time last.
int64_t time_key(const LocalTime& t) {
  if (t.time.known()) return t.time.utc_us;
  return t.valid ? civil_to_epoch_us(t.civil) : INT64_MAX;
}

// The later of two times (a folded line's own time and its own folded repeats' last).
void take_later(LocalTime& into, const LocalTime& t) {
  if (!t.valid) return;
  if (!into.valid || time_key(t) >= time_key(into)) into = t;
}

// Folds the facts of `v` past `keep` per key: the kept facts are the earliest `keep` of the
// key by (time, entry, line); each later one adds its line and its own repeats to the last kept.
template <class T, class KeyFn, class EligibleFn>
void fold(std::vector<T>& v, uint32_t keep, KeyFn key_of, EligibleFn eligible) {
  std::vector<size_t> order;
  for (size_t i = 0; i < v.size(); ++i)
    if (eligible(v[i])) order.push_back(i);
  // By time, then by where the line is: the same kept facts whatever order the entries came in.
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const int64_t ta = time_key(v[a].time), tb = time_key(v[b].time);
    if (ta != tb) return ta < tb;
    if (v[a].evidence.entry != v[b].evidence.entry) return v[a].evidence.entry < v[b].evidence.entry;
    if (v[a].evidence.line != v[b].evidence.line) return v[a].evidence.line < v[b].evidence.line;
    return a < b;
  });
  struct Group {
    uint32_t kept = 0;
    size_t last = 0;
  };
  std::unordered_map<uint64_t, Group> groups;
  std::vector<bool> dropped(v.size(), false);
  bool any = false;
  for (size_t i : order) {
    Group& g = groups[key_of(v[i])];
    if (g.kept < keep) {
      ++g.kept;
      g.last = i;
      continue;
    }
    FoldedRepeats& r = v[g.last].repeats;
    r.lines += 1 + v[i].repeats.lines;
    take_later(r.last, v[i].time);
    take_later(r.last, v[i].repeats.last);
    dropped[i] = any = true;
  }
  if (!any) return;
  size_t n = 0;
  for (size_t i = 0; i < v.size(); ++i)
    if (!dropped[i]) {
      if (n != i) v[n] = std::move(v[i]);
      ++n;
    }
  v.erase(v.begin() + static_cast<std::ptrdiff_t>(n), v.end());
}

}  // namespace

namespace {

uint64_t hit_key(const SignatureHit& h) {
  // Not the excerpt: it is cut at a fixed length, so digits of different widths move the
  // cut. The captured values name what differs (an operator, a kernel); their digits do not.
  uint64_t k = mix64(fnv1a(h.id), static_cast<uint64_t>(*h.pid));
  for (const auto& [name, value] : h.captures) k = mix64(mix64(k, fnv1a(name)), message_template_key(value));
  return k;
}

uint64_t code_key(const ErrorCodeFact& e) {
  uint64_t k = mix64(fnv1a(e.code), static_cast<uint64_t>(e.form));
  k = mix64(mix64(k, fnv1a(e.module)), static_cast<uint64_t>(e.origin.pid));
  return mix64(k, e.device_id ? static_cast<uint64_t>(*e.device_id) + 1 : 0);
}

bool plog_hit(const SignatureHit& h) { return h.source.empty() && h.pid.has_value(); }

// The directory of an entry ("<input>!logs/.../plog" of ".../plog/plog-1_2.log").
uint64_t directory_key(const EvidenceRef& ev) {
  const size_t slash = ev.entry.rfind('/');
  return fnv1a(std::string_view(ev.entry).substr(0, slash == std::string::npos ? 0 : slash));
}

// Due when the vector is three quarters full, at least kMinFacts long: about once per
// doubling, so the folds cost O(n log n) over the whole read. Where a fold frees too little
// the vector is given its next doubling at once, so the next fold waits as long.
template <class T>
bool fold_due(const std::vector<T>& v) {
  constexpr size_t kMinFacts = 4096;
  return v.size() >= kMinFacts && v.size() * 4 >= v.capacity() * 3;
}

template <class T>
void make_room(std::vector<T>& v) {
  if (v.size() * 4 >= v.capacity() * 3) v.reserve(v.capacity() * 2);
}

}  // namespace

void fold_plog_facts_per_process(LogFacts& logs) {
  fold(logs.signature_hits, kPlogKeptPerTemplate, hit_key, plog_hit);
  fold(logs.error_codes, PlogFileParser::kKeptPerCode, code_key, [](const ErrorCodeFact&) { return true; });
}

void fold_plog_facts_per_directory(LogFacts& logs) {
  if (fold_due(logs.signature_hits)) {
    fold(
        logs.signature_hits, kPlogKeptPerTemplate,
        [](const SignatureHit& h) { return mix64(hit_key(h), directory_key(h.evidence)); }, plog_hit);
    make_room(logs.signature_hits);
  }
  if (fold_due(logs.error_codes)) {
    fold(
        logs.error_codes, PlogFileParser::kKeptPerCode,
        [](const ErrorCodeFact& e) { return mix64(code_key(e), directory_key(e.evidence)); },
        [](const ErrorCodeFact&) { return true; });
    make_room(logs.error_codes);
  }
}

}  // namespace triage
