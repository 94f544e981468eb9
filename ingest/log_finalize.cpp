#include "ingest/log_finalize.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include "knowledge/knowledge.h"
#include "model/zones.h"
#include "parsers/common/log_text.h"

namespace triage {

std::string_view to_string(DeviceIdSource s) {
  switch (s) {
    case DeviceIdSource::none: return "none";
    case DeviceIdSource::path: return "path";
    case DeviceIdSource::message: return "message";
    case DeviceIdSource::same_stream: return "same_stream";
  }
  return "none";
}

std::string_view to_string(ErrorCodeForm f) {
  switch (f) {
    case ErrorCodeForm::err_code: return "err_code";
    case ErrorCodeForm::runtime_result: return "runtime_result";
    case ErrorCodeForm::ret_code: return "ret_code";
    case ErrorCodeForm::error_code_is: return "error_code_is";
    case ErrorCodeForm::message_code: return "message_code";
  }
  return "err_code";
}

namespace {

// Zones looked up once per pid.
class ZoneCache {
 public:
  ZoneCache(const BundleFacts& f, const AnalyzeOptions& o) : facts_(f), options_(o) {}
  const std::optional<ZoneChoice>& for_pid(std::optional<int64_t> pid) {
    int64_t key = pid.value_or(INT64_MIN);
    auto it = cache_.find(key);
    if (it == cache_.end()) it = cache_.emplace(key, zone_for_process(facts_, pid, options_)).first;
    return it->second;
  }

 private:
  const BundleFacts& facts_;
  const AnalyzeOptions& options_;
  std::map<int64_t, std::optional<ZoneChoice>> cache_;
};

void convert(LocalTime& t, int64_t pid, ZoneCache& zones) {
  if (!t.valid || t.time.known()) return;
  std::string original = std::move(t.time.original);
  t.time = local_to_timestamp(t.civil, zones.for_pid(pid), original);
}

uint64_t normalised_hash(std::string_view msg) {
  uint64_t h = 1469598103934665603ULL;
  bool space = false;
  for (unsigned char c : msg) {
    if (c == ' ' || c == '\t') {
      space = true;
      continue;
    }
    if (space) {
      h ^= ' ';
      h *= 1099511628211ULL;
      space = false;
    }
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

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
  for (KernelEvent& ev : facts.logs.kernel_events) {
    if (ev.time.known()) continue;
    if (ev.form == KernelLogForm::dmesg_raw && ev.uptime_s) {
      // dmesg of the bundle is the current boot: btime + uptime (approximate: suspend and
      // clock adjustments since boot are not accounted for).
      if (sys.btime && (ev.boot_id.empty() || ev.boot_id == sys.boot_id)) {
        if (ev.boot_id.empty()) ev.boot_id = sys.boot_id;  // so dedupe never pairs another boot's line
        ev.time.utc_us = *sys.btime * 1000000 + static_cast<int64_t>(std::llround(*ev.uptime_s * 1e6));
        ev.time.basis = TimeBasis::boot_relative;
        ev.approximate = true;
      }
      continue;
    }
    if (!ev.local_valid || !host_zone) continue;
    CivilTime local = ev.local;
    TimeBasis basis = host_zone->basis;
    if (ev.year_missing) {
      if (!sys.collected_at_us) continue;
      int64_t off = host_zone->rule.offset_at_utc(*sys.collected_at_us);
      CivilTime now = civil_from_utc_us(*sys.collected_at_us + off * 1000000);
      local.year = now.year;
      // a date after the collection day belongs to the year before
      if (local.month * 100 + local.day > now.month * 100 + now.day + 1) --local.year;
      if (!local.valid()) continue;  // Feb 29 in a year without one
      basis = TimeBasis::year_estimated;
    }
    ev.time.utc_us = host_zone->rule.local_to_utc_us(local);
    ev.time.basis = basis;
  }
}

bool same_event(const KernelEvent& a, const KernelEvent& b) {
  if (a.evidence.entry == b.evidence.entry) return false;
  if (!a.boot_id.empty() && !b.boot_id.empty() && a.boot_id != b.boot_id) return false;
  // Seconds since boot identify a line only within one boot (boots repeat their timings).
  if (a.uptime_s && b.uptime_s && std::fabs(*a.uptime_s - *b.uptime_s) <= 0.0005 &&
      !a.boot_id.empty() && a.boot_id == b.boot_id)
    return true;
  if (!a.time.known() || !b.time.known()) return false;
  bool approx = a.approximate || b.approximate || a.time.basis == TimeBasis::year_estimated ||
                b.time.basis == TimeBasis::year_estimated;
  double tol = approx ? kKernelDedupeApproxS : kKernelDedupeExactS;
  return std::fabs(static_cast<double>(a.time.utc_us - b.time.utc_us)) <= tol * 1e6;
}

void dedupe_kernel(LogFacts& logs) {
  auto& evs = logs.kernel_events;
  for (auto& e : evs) e.dedupe_hash = normalised_hash(e.message);
  // Best copy first within equal messages, so the kept one is the most exact.
  std::stable_sort(evs.begin(), evs.end(), [](const KernelEvent& a, const KernelEvent& b) {
    if (a.dedupe_hash != b.dedupe_hash) return a.dedupe_hash < b.dedupe_hash;
    return form_rank(a.form) < form_rank(b.form);
  });
  std::vector<KernelEvent> kept;
  kept.reserve(evs.size());
  size_t group_begin = 0;
  for (size_t i = 0; i < evs.size(); ++i) {
    if (i > 0 && evs[i].dedupe_hash != evs[i - 1].dedupe_hash) group_begin = kept.size();
    bool merged = false;
    if (evs[i].form != KernelLogForm::device_kernel) {
      for (size_t k = group_begin; k < kept.size(); ++k) {
        if (kept[k].form == KernelLogForm::device_kernel) continue;
        if (!same_event(kept[k], evs[i])) continue;
        kept[k].also_seen.push_back(evs[i].evidence);
        kept[k].also_seen_copies.push_back({evs[i].form, evs[i].time});
        if (kept[k].boot_id.empty()) kept[k].boot_id = evs[i].boot_id;
        if (!kept[k].uptime_s) kept[k].uptime_s = evs[i].uptime_s;
        ++logs.kernel_duplicates;
        merged = true;
        break;
      }
    }
    if (!merged) kept.push_back(std::move(evs[i]));
  }
  evs = std::move(kept);
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

}  // namespace

void finalize_log_facts(BundleFacts& facts, const AnalyzeOptions& options) {
  LogFacts& logs = facts.logs;
  if (logs.finalized) return;
  logs.finalized = true;
  drop_plog_copies(logs);
  const KnowledgeBase& kb = knowledge_for(options.knowledge_dir);
  logs.knowledge_origin = kb.origin;
  logs.knowledge_errors = kb.errors;

  ZoneCache zones(facts, options);
  for (auto& s : logs.stalls) convert(s.time, s.origin.pid, zones);
  for (auto& s : logs.sync_timeouts) convert(s.time, s.origin.pid, zones);
  for (auto& e : logs.error_codes) convert(e.time, e.origin.pid, zones);
  for (auto& h : logs.signature_hits)
    if (h.pid) convert(h.time, *h.pid, zones);
  for (auto& p : logs.plog_entries) {
    int64_t pid = p.pid_from_name.value_or(-1);
    convert(p.first, pid, zones);
    convert(p.last, pid, zones);
    for (auto& l : p.level_lines) {
      convert(l.first, l.pid, zones);
      convert(l.last, l.pid, zones);
    }
  }

  kernel_times(facts, options);
  dedupe_kernel(logs);
  for (auto& ev : logs.kernel_events) {
    for (auto& h : ev.hits) {
      h.time.time = ev.time;
      h.time.valid = ev.time.known();
      logs.signature_hits.push_back(std::move(h));
    }
    ev.hits.clear();
  }
  std::stable_sort(logs.kernel_events.begin(), logs.kernel_events.end(),
                   [](const KernelEvent& a, const KernelEvent& b) {
                     int64_t ka = a.time.known() ? a.time.utc_us : INT64_MAX;
                     int64_t kb2 = b.time.known() ? b.time.utc_us : INT64_MAX;
                     return ka < kb2;
                   });
  auto by_time = [](const auto& a, const auto& b) { return sort_key(a) < sort_key(b); };
  std::stable_sort(logs.stalls.begin(), logs.stalls.end(), by_time);
  std::stable_sort(logs.sync_timeouts.begin(), logs.sync_timeouts.end(), by_time);
  std::stable_sort(logs.error_codes.begin(), logs.error_codes.end(), by_time);
  std::stable_sort(logs.signature_hits.begin(), logs.signature_hits.end(), by_time);
}

}  // namespace triage
