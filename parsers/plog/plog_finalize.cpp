// Finishing the plog family's facts once the whole bundle is read: a line copied in several
// entries kept once, local plog times through the process's zone, facts sorted by time;
// then the install and operation events (seclog).
#include <algorithm>
#include <cstdint>
#include <set>
#include <unordered_map>

#include "parsers/common/zone_cache.h"
#include "parsers/plog/kinds.h"
#include "parsers/plog/plog_process_fold.h"

namespace triage {

namespace {

void convert(LocalTime& t, int64_t pid, ZoneCache& zones) {
  if (!t.valid || t.time.known()) return;
  std::string original = std::move(t.time.original);
  t.time = local_to_timestamp(t.civil, zones.for_pid(pid), original);
}

template <class T>
int64_t sort_key(const T& f) {
  return f.time.time.known() ? f.time.time.utc_us : INT64_MAX;
}

// A plog line copied in several entries (run/ and debug/, stdout) keeps the facts of the
// entry listed first in plog_entries (walk order once load has ordered the facts): the
// choice never depends on which copy an archive stored first.
void drop_plog_copies(LogFacts& logs) {
  std::unordered_map<std::string_view, size_t> entry_index;
  for (size_t i = 0; i < logs.plog_entries.size(); ++i) entry_index.emplace(logs.plog_entries[i].entry, i);
  auto index_of = [&](const EvidenceRef& ev) {
    auto it = entry_index.find(ev.entry);
    return it == entry_index.end() ? SIZE_MAX : it->second;
  };
  std::unordered_map<uint64_t, size_t> owner;  // copy key -> index of the entry that keeps it
  auto claim = [&](uint64_t key, const EvidenceRef& ev) {
    if (!key) return;
    auto [it, added] = owner.try_emplace(key, index_of(ev));
    if (!added) it->second = std::min(it->second, index_of(ev));
  };
  for (const auto& f : logs.stalls) claim(f.origin.copy_key, f.evidence);
  for (const auto& f : logs.sync_timeouts) claim(f.origin.copy_key, f.evidence);
  for (const auto& f : logs.error_codes) claim(f.origin.copy_key, f.evidence);
  for (const auto& f : logs.signature_hits) claim(f.copy_key, f.evidence);
  std::set<std::pair<size_t, uint64_t>> dropped;  // (entry, line key): counted once per line
  auto later_copy = [&](uint64_t key, const EvidenceRef& ev) {
    if (!key || owner[key] == index_of(ev)) return false;
    dropped.emplace(index_of(ev), key);
    return true;
  };
  std::erase_if(logs.stalls, [&](const auto& f) { return later_copy(f.origin.copy_key, f.evidence); });
  std::erase_if(logs.sync_timeouts, [&](const auto& f) { return later_copy(f.origin.copy_key, f.evidence); });
  std::erase_if(logs.error_codes, [&](const auto& f) { return later_copy(f.origin.copy_key, f.evidence); });
  std::erase_if(logs.signature_hits, [&](const auto& f) { return later_copy(f.copy_key, f.evidence); });
  for (const auto& [entry, key] : dropped)
    if (entry < logs.plog_entries.size()) ++logs.plog_entries[entry].duplicates;
}

void finish_plog_logs(BundleFacts& facts, const AnalyzeOptions& options) {
  LogFacts& logs = facts.logs;
  drop_plog_copies(logs);
  ZoneCache zones(facts, options);
  for (auto& s : logs.stalls) convert(s.time, s.origin.pid, zones);
  for (auto& s : logs.sync_timeouts) convert(s.time, s.origin.pid, zones);
  for (auto& e : logs.error_codes) {
    convert(e.time, e.origin.pid, zones);
    convert(e.repeats.last, e.origin.pid, zones);
  }
  for (auto& h : logs.signature_hits)
    if (h.pid) {
      convert(h.time, *h.pid, zones);
      convert(h.repeats.last, *h.pid, zones);
    }
  for (auto& p : logs.plog_entries) {
    int64_t pid = p.pid_from_name.value_or(-1);
    convert(p.first, pid, zones);
    convert(p.last, pid, zones);
    for (auto& l : p.level_lines) {
      convert(l.first, l.pid, zones);
      convert(l.last, l.pid, zones);
    }
  }
  // After the copies are dropped and the times are UTC: a folded line is then counted once.
  fold_plog_facts_per_process(logs);
  auto by_time = [](const auto& a, const auto& b) { return sort_key(a) < sort_key(b); };
  std::stable_sort(logs.stalls.begin(), logs.stalls.end(), by_time);
  std::stable_sort(logs.sync_timeouts.begin(), logs.sync_timeouts.end(), by_time);
  std::stable_sort(logs.error_codes.begin(), logs.error_codes.end(), by_time);
  // The signature hits are sorted by the kernel family, after its hits joined these.
}

}  // namespace

void finalize_plog_facts(BundleFacts& facts, const AnalyzeOptions& options) {
  LogFacts& logs = facts.logs;
  // LogFacts is shared with the kernel family, whose step runs after this one and marks it
  // finished; the events have their own mark.
  if (!logs.finalized) finish_plog_logs(facts, options);
  finalize_event_facts(facts, options);
}

}  // namespace triage
