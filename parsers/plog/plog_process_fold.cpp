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

void fold_plog_facts_per_process(LogFacts& logs) {
  fold(
      logs.signature_hits, kPlogKeptPerTemplate,
      [](const SignatureHit& h) {
        // Not the excerpt: it is cut at a fixed length, so digits of different widths move the
        // cut. The captured values name what differs (an operator, a kernel); their digits do not.
        uint64_t k = mix64(fnv1a(h.id), static_cast<uint64_t>(*h.pid));
        for (const auto& [name, value] : h.captures) k = mix64(mix64(k, fnv1a(name)), message_template_key(value));
        return k;
      },
      [](const SignatureHit& h) { return h.source.empty() && h.pid.has_value(); });
  fold(
      logs.error_codes, PlogFileParser::kKeptPerCode,
      [](const ErrorCodeFact& e) {
        uint64_t k = mix64(fnv1a(e.code), static_cast<uint64_t>(e.form));
        k = mix64(mix64(k, fnv1a(e.module)), static_cast<uint64_t>(e.origin.pid));
        return mix64(k, e.device_id ? static_cast<uint64_t>(*e.device_id) + 1 : 0);
      },
      [](const ErrorCodeFact&) { return true; });
}

}  // namespace triage
