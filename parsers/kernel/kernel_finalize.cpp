// Finishing the kernel family's facts once the whole bundle is read: dmesg uptimes through
// btime, year-less syslog times through the collection time; the same kernel line from
// journal, dmesg and syslog merged; kernel signature hits moved to the common list (after
// the plog family's, whose times are final by then); facts sorted by time.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "parsers/common/log_text.h"
#include "parsers/common/zone_cache.h"
#include "parsers/kernel/kinds.h"

namespace triage {

namespace {

// Kernel lines count as one when their normalised messages are equal, their boots do not
// differ, and their times lie within this many seconds (wider when a time is approximate).
constexpr double kKernelDedupeExactS = 2.0;
constexpr double kKernelDedupeApproxS = 10.0;

int form_rank(KernelLogForm f) {  // which copy of a duplicated line is kept: exact UTC first
  switch (f) {
    case KernelLogForm::journal_json: return 0;
    case KernelLogForm::journal_text: return 1;
    case KernelLogForm::syslog: return 2;
    case KernelLogForm::dmesg_human: return 3;
    case KernelLogForm::dmesg_raw: return 4;
    case KernelLogForm::device_kernel: return 5;
  }
  return 6;
}

void kernel_times(BundleFacts& facts, const AnalyzeOptions& options) {
  ZoneCache zones(facts, options);
  const auto& host_zone = zones.for_pid(std::nullopt);
  const auto& sys = facts.system;
  // One time of `ev` (its own, or its last folded line's) from the fields it was read with.
  auto finish = [&](KernelEvent& ev, Timestamp& t, const std::optional<double>& uptime_s,
                    const CivilTime& read_local, bool local_valid) {
    if (t.known()) return;
    if (ev.form == KernelLogForm::dmesg_raw && uptime_s) {
      // dmesg of the bundle is the current boot: btime + uptime (approximate: suspend and
      // clock adjustments since boot are not accounted for).
      if (sys.btime && (ev.boot_id.empty() || ev.boot_id == sys.boot_id)) {
        if (ev.boot_id.empty()) ev.boot_id = sys.boot_id;  // so dedupe never pairs another boot's line
        t.utc_us = *sys.btime * 1000000 + static_cast<int64_t>(std::llround(*uptime_s * 1e6));
        t.basis = TimeBasis::boot_relative;
        ev.approximate = true;
      }
      return;
    }
    if (!local_valid || !host_zone) return;
    CivilTime local = read_local;
    TimeBasis basis = host_zone->basis;
    if (ev.year_missing) {
      if (!sys.collected_at_us) return;
      int64_t off = host_zone->rule.offset_at_utc(*sys.collected_at_us);
      CivilTime now = civil_from_utc_us(*sys.collected_at_us + off * 1000000);
      local.year = now.year;
      // a date after the collection day belongs to the year before
      if (local.month * 100 + local.day > now.month * 100 + now.day + 1) --local.year;
      if (!local.valid()) return;  // Feb 29 in a year without one
      basis = TimeBasis::year_estimated;
    }
    t.utc_us = host_zone->rule.local_to_utc_us(local);
    t.basis = basis;
  };
  for (KernelEvent& ev : facts.logs.kernel_events) {
    finish(ev, ev.time, ev.uptime_s, ev.local, ev.local_valid);
    if (ev.repeats.lines)
      finish(ev, ev.repeats.last, ev.repeats.last_uptime_s, ev.repeats.last_local, ev.repeats.last_local_valid);
  }
}

// A kernel line as the dedupe compares it: a KernelEvent or a compact KernelInfoLine.
struct KernelKey {
  std::string_view entry, boot_id;
  std::optional<double> uptime_s;
  Timestamp const* time = nullptr;  // null: a compact line (UTC from the source)
  int64_t utc_us = 0;
  bool approximate = false;
  KernelLogForm form = KernelLogForm::dmesg_raw;

  bool known() const { return !time || time->known(); }
  TimeBasis basis() const { return time ? time->basis : TimeBasis::utc_in_source; }
};

KernelKey key_of(const KernelEvent& e) {
  return {e.evidence.entry, e.boot_id, e.uptime_s, &e.time, e.time.utc_us, e.approximate, e.form};
}

KernelKey key_of(const KernelInfoLine& l, const KernelInfoLines& info) {
  std::optional<double> uptime;
  if (l.has_uptime) uptime = l.uptime_s;
  return {info.names[l.entry], info.names[l.boot_id], uptime, nullptr, l.utc_us, l.approximate, l.form};
}

bool same_event(const KernelKey& a, const KernelKey& b) {
  if (a.entry == b.entry) return false;
  if (!a.boot_id.empty() && !b.boot_id.empty() && a.boot_id != b.boot_id) return false;
  // Seconds since boot identify a line only within one boot (boots repeat their timings).
  if (a.uptime_s && b.uptime_s && std::fabs(*a.uptime_s - *b.uptime_s) <= 0.0005 &&
      !a.boot_id.empty() && a.boot_id == b.boot_id)
    return true;
  if (!a.known() || !b.known()) return false;
  bool approx = a.approximate || b.approximate || a.basis() == TimeBasis::year_estimated ||
                b.basis() == TimeBasis::year_estimated;
  double tol = approx ? kKernelDedupeApproxS : kKernelDedupeExactS;
  return std::fabs(static_cast<double>(a.utc_us - b.utc_us)) <= tol * 1e6;
}

Timestamp utc_time(const KernelInfoLine& l) {
  Timestamp t;
  t.utc_us = l.utc_us;
  t.basis = TimeBasis::utc_in_source;
  return t;
}

EvidenceRef evidence_of(const KernelInfoLine& l, const KernelInfoLines& info) {
  return EvidenceRef{info.names[l.entry], l.line, l.offset, info.excerpts.get(l.excerpt)};
}

// A compact line that pairs with a copy becomes a KernelEvent: what the skew reads of it.
KernelEvent expand(const KernelInfoLine& l, const KernelInfoLines& info) {
  KernelEvent ev;
  ev.form = l.form;
  ev.boot_id = info.names[l.boot_id];
  ev.time = utc_time(l);
  ev.approximate = l.approximate;
  if (l.has_uptime) ev.uptime_s = l.uptime_s;
  ev.evidence = evidence_of(l, info);
  ev.dedupe_hash = l.dedupe_hash;
  ev.seq = l.seq;
  return ev;
}

// Copies of one kernel line in several sources (journal, dmesg, syslog) become one event
// with the others as also_seen. Events and compact info lines are merged as one list in the
// order (message, best form, as read); a compact line is made an event only if it pairs.
void dedupe_kernel(LogFacts& logs) {
  auto& evs = logs.kernel_events;
  KernelInfoLines& info = logs.kernel_info;
  for (auto& e : evs) e.dedupe_hash = kernel_message_hash(e.message);
  // Best copy first within equal messages, so the kept one is the most exact.
  std::stable_sort(evs.begin(), evs.end(), [](const KernelEvent& a, const KernelEvent& b) {
    if (a.dedupe_hash != b.dedupe_hash) return a.dedupe_hash < b.dedupe_hash;
    if (form_rank(a.form) != form_rank(b.form)) return form_rank(a.form) < form_rank(b.form);
    return a.seq < b.seq;
  });
  std::sort(info.lines.begin(), info.lines.end(), [](const KernelInfoLine& a, const KernelInfoLine& b) {
    return std::make_tuple(a.dedupe_hash, form_rank(a.form), a.seq) <
           std::make_tuple(b.dedupe_hash, form_rank(b.form), b.seq);
  });
  std::vector<KernelEvent> kept;
  kept.reserve(evs.size());
  // The kept lines of the current message, in order: an event (moved or made) or a compact line.
  struct Slot {
    bool compact;
    size_t index;  // into `pool` or info.lines
  };
  std::vector<KernelEvent> pool;
  std::vector<Slot> group;
  auto flush = [&] {
    for (const Slot& s : group)
      if (!s.compact) kept.push_back(std::move(pool[s.index]));
    group.clear();
    pool.clear();
  };
  size_t i = 0, k = 0;
  uint64_t hash = 0;
  while (i < evs.size() || k < info.lines.size()) {
    bool compact = i == evs.size() ||
                   (k < info.lines.size() &&
                    std::make_tuple(info.lines[k].dedupe_hash, form_rank(info.lines[k].form), info.lines[k].seq) <
                        std::make_tuple(evs[i].dedupe_hash, form_rank(evs[i].form), evs[i].seq));
    uint64_t h = compact ? info.lines[k].dedupe_hash : evs[i].dedupe_hash;
    if (h != hash || (i + k) == 0) flush();
    hash = h;
    KernelKey key = compact ? key_of(info.lines[k], info) : key_of(evs[i]);
    bool merged = false;
    if (key.form != KernelLogForm::device_kernel) {
      for (Slot& s : group) {
        KernelLogForm form = s.compact ? info.lines[s.index].form : pool[s.index].form;
        if (form == KernelLogForm::device_kernel) continue;
        if (!same_event(s.compact ? key_of(info.lines[s.index], info) : key_of(pool[s.index]), key)) continue;
        if (s.compact) {
          pool.push_back(expand(info.lines[s.index], info));
          s = {false, pool.size() - 1};
        }
        KernelEvent& into = pool[s.index];
        if (compact) {
          const KernelInfoLine& l = info.lines[k];
          into.also_seen.push_back(evidence_of(l, info));
          into.also_seen_copies.push_back({l.form, utc_time(l)});
          if (into.boot_id.empty()) into.boot_id = info.names[l.boot_id];
          if (!into.uptime_s && l.has_uptime) into.uptime_s = l.uptime_s;
        } else {
          into.also_seen.push_back(evs[i].evidence);
          into.also_seen_copies.push_back({evs[i].form, evs[i].time});
          if (into.boot_id.empty()) into.boot_id = evs[i].boot_id;
          if (!into.uptime_s) into.uptime_s = evs[i].uptime_s;
          if (into.repeats.lines < evs[i].repeats.lines) into.repeats = evs[i].repeats;
        }
        ++logs.kernel_duplicates;
        merged = true;
        break;
      }
    }
    if (!merged) {
      if (compact) {
        group.push_back({true, k});
      } else {
        pool.push_back(std::move(evs[i]));
        group.push_back({false, pool.size() - 1});
      }
    }
    if (compact) ++k;
    else ++i;
  }
  flush();
  evs = std::move(kept);
  logs.kernel_info = KernelInfoLines{};  // unpaired compact lines are read by nothing else
}

// A kept line of a lesser kernel source inside a storm that a better source folded (its
// template's lines after the last kept one, KernelEvent::repeats) is a copy of a folded line:
// a wrapped dmesg ring keeps a storm's end, the journal its start, so their kept lines never
// pair one by one. Dropped and counted as duplicates, never paired for the clock skew.
void drop_storm_copies(LogFacts& logs) {
  auto& evs = logs.kernel_events;
  struct Span {
    int rank;
    int64_t from, to;
    size_t head;
  };
  std::map<std::pair<uint64_t, std::string_view>, std::vector<Span>> storms;  // (template, boot)
  for (size_t i = 0; i < evs.size(); ++i) {
    const KernelEvent& e = evs[i];
    if (!e.repeats.lines || !e.time.known() || !e.repeats.last.known() ||
        e.form == KernelLogForm::device_kernel)
      continue;
    storms[{e.template_key, e.boot_id}].push_back({form_rank(e.form), e.time.utc_us, e.repeats.last.utc_us, i});
  }
  if (storms.empty()) return;
  constexpr int64_t kSlackUs = 2'000'000;  // dmesg times are btime + uptime: approximate
  std::vector<bool> copy(evs.size(), false);
  for (size_t i = 0; i < evs.size(); ++i) {
    const KernelEvent& e = evs[i];
    if (e.form == KernelLogForm::device_kernel || !e.time.known()) continue;
    auto it = storms.find({e.template_key, e.boot_id});
    if (it == storms.end()) continue;
    for (const Span& s : it->second)
      if (s.rank < form_rank(e.form) && e.time.utc_us >= s.from - kSlackUs && e.time.utc_us <= s.to + kSlackUs) {
        copy[i] = true;
        logs.kernel_duplicates += 1 + e.repeats.lines;
        break;
      }
  }
  size_t i = 0;
  std::erase_if(evs, [&](const KernelEvent&) { return copy[i++]; });
}

}  // namespace

void finalize_kernel_facts(BundleFacts& facts, const AnalyzeOptions& options) {
  LogFacts& logs = facts.logs;
  if (logs.finalized) return;  // once: the plog family's step, run before, reads this mark
  logs.finalized = true;
  kernel_times(facts, options);
  dedupe_kernel(logs);
  drop_storm_copies(logs);
  for (auto& ev : logs.kernel_events) {
    for (auto& h : ev.hits) {
      h.time.time = ev.time;
      h.time.valid = ev.time.known();
      h.repeats.lines = ev.repeats.lines;
      h.repeats.last.time = ev.repeats.last;
      h.repeats.last.valid = ev.repeats.last.known();
      logs.signature_hits.push_back(std::move(h));
    }
    ev.hits.clear();
  }
  // By time; lines with no absolute time (dmesg uptimes without a boot time) last, in the
  // order they were read (seq) rather than the dedupe's message-hash order, so "first" and
  // "last" of such lines mean what they say.
  std::stable_sort(logs.kernel_events.begin(), logs.kernel_events.end(),
                   [](const KernelEvent& a, const KernelEvent& b) {
                     if (a.time.known() != b.time.known()) return a.time.known();
                     if (a.time.known()) return a.time.utc_us < b.time.utc_us;
                     return a.seq < b.seq;
                   });
  std::stable_sort(logs.signature_hits.begin(), logs.signature_hits.end(),
                   [](const SignatureHit& a, const SignatureHit& b) {
                     auto key = [](const SignatureHit& h) {
                       return h.time.time.known() ? h.time.time.utc_us : INT64_MAX;
                     };
                     return key(a) < key(b);
                   });
}

}  // namespace triage
