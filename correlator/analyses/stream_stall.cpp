#include "correlator/analyses/stream_stall.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

namespace triage {
namespace {

int64_t local_us(const LocalTime& t) { return t.valid ? civil_to_epoch_us(t.civil) : 0; }

// The host's wall clock as printed, with the offset when the zone is known.
std::string local_text(const LocalTime& t) {
  if (!t.valid) return "unknown";
  std::string s = format_utc(local_us(t));
  if (!s.empty() && s.back() == 'Z') s.pop_back();
  if (!t.time.known()) return s + " (zone unknown)";
  s += format_offset(static_cast<int>((local_us(t) - t.time.utc_us) / 1000000));
  if (t.time.basis == TimeBasis::local_assumed_zone) s += " (zone assumed)";
  return s;
}

std::string utc_text(const LocalTime& t) {
  return t.time.known() ? format_utc(t.time.utc_us) : std::string("unknown");
}

std::string opt(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "unknown"; }

// Same line read twice (run/ and debug/ copies, stdout): same process, time and values.
using SampleKey = std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                             int64_t, int64_t>;
SampleKey key_of(const StallReport& r) {
  return {r.origin.pid, local_us(r.time), r.stream_id, r.sq_id.value_or(-1), r.task_id,
          r.sq_head.value_or(-1), r.flip_num.value_or(-1), r.pending_num,
          r.old_variant ? 1 : 0};
}

// Whether the queue moved between two consecutive reports of one stream.
bool progressed(const StallReport& a, const StallReport& b) {
  if (a.sq_head && b.sq_head) {
    // a new flip is a wrap of the ring: progress even when the head is now smaller
    if (b.flip_num.value_or(0) != a.flip_num.value_or(0)) return true;
    if (*b.sq_head != *a.sq_head) return true;
  } else if (b.task_id != a.task_id) {
    return true;
  }
  return b.pending_num < a.pending_num;
}

void order_and_classify(StreamHistory& h) {
  // File order: entries by their earliest sample, lines within an entry. A rotated plog
  // continues in the next file; a clock step back inside one file keeps the line order.
  std::map<std::string, int64_t> entry_first;
  for (const auto* s : h.samples) {
    auto [it, fresh] = entry_first.emplace(s->evidence.entry, local_us(s->time));
    if (!fresh) it->second = std::min(it->second, local_us(s->time));
  }
  std::stable_sort(h.samples.begin(), h.samples.end(), [&](const StallReport* a, const StallReport* b) {
    auto ka = std::tuple(entry_first[a->evidence.entry], a->evidence.entry, a->evidence.line);
    auto kb = std::tuple(entry_first[b->evidence.entry], b->evidence.entry, b->evidence.line);
    return ka < kb;
  });
  for (size_t i = 1; i < h.samples.size(); ++i)
    if (local_us(h.samples[i]->time) < local_us(h.samples[i - 1]->time)) h.clock_backwards = true;
  std::set<int64_t> times;
  for (const auto* s : h.samples) times.insert(local_us(s->time));
  if (times.size() < 2) {
    h.verdict = StreamVerdict::single_sample;
    return;
  }
  size_t from = h.samples.size() - 1;
  while (from > 0 && !progressed(*h.samples[from - 1], *h.samples[from])) --from;
  std::set<int64_t> frozen_times;
  for (size_t i = from; i < h.samples.size(); ++i) frozen_times.insert(local_us(h.samples[i]->time));
  h.frozen_from = from;
  h.verdict = frozen_times.size() >= 2 ? StreamVerdict::stalled : StreamVerdict::progressing;
}

}  // namespace

std::string stream_label(const StreamHistory& h) {
  std::string s = fmt::format("pid {} device {} stream {}", h.pid, opt(h.device), h.stream_id);
  if (h.sq_id) s += fmt::format(" sq {}", *h.sq_id);
  return s;
}

std::vector<StreamHistory> stream_histories(const HostGroup& group) {
  // Device of a (pid, stream, sq) when the lines naming it agree on one; reports without a
  // device join it.
  using StreamKey = std::tuple<int64_t, int64_t, int64_t>;
  std::map<StreamKey, std::set<int64_t>> devices;
  for (const auto* b : group.bundles)
    for (const auto& r : b->logs.stalls)
      if (r.device_id) devices[{r.origin.pid, r.stream_id, r.sq_id.value_or(-1)}].insert(*r.device_id);

  using HistKey = std::tuple<int64_t, int64_t, int64_t, int64_t>;  // pid, device, stream, sq
  std::map<HistKey, StreamHistory> by_key;
  std::map<HistKey, std::set<SampleKey>> seen;
  for (const auto* b : group.bundles) {
    for (const auto& r : b->logs.stalls) {
      StreamKey sk{r.origin.pid, r.stream_id, r.sq_id.value_or(-1)};
      std::optional<int64_t> dev = r.device_id;
      if (!dev && devices[sk].size() == 1) dev = *devices[sk].begin();
      HistKey hk{r.origin.pid, dev.value_or(-1), r.stream_id, r.sq_id.value_or(-1)};
      StreamHistory& h = by_key[hk];
      if (h.samples.empty()) {
        h.host = group.host;
        h.pid = r.origin.pid;
        h.device = dev;
        h.stream_id = r.stream_id;
        h.sq_id = r.sq_id;
      }
      if (!seen[hk].insert(key_of(r)).second) {
        ++h.duplicates;
        continue;
      }
      h.samples.push_back(&r);
    }
  }
  std::vector<StreamHistory> out;
  for (auto& [k, h] : by_key) {
    order_and_classify(h);
    out.push_back(std::move(h));
  }
  // Hard sync timeouts join the histories of the same process and stream.
  std::set<std::tuple<int64_t, int64_t, int64_t, int64_t>> seen_timeouts;
  for (const auto* b : group.bundles)
    for (const auto& t : b->logs.sync_timeouts) {
      if (!seen_timeouts.insert({t.origin.pid, t.stream_id, local_us(t.time), t.try_count.value_or(-1)}).second)
        continue;
      for (auto& h : out)
        if (h.pid == t.origin.pid && h.stream_id == t.stream_id &&
            (!t.device_id || !h.device || *t.device_id == *h.device)) {
          h.sync_timeouts.push_back(&t);
          break;
        }
    }
  return out;
}

namespace {

void add_sample_values(Finding& f, const StreamHistory& h, const StallReport& first,
                       const StallReport& last, size_t samples) {
  f.value("pid", std::to_string(h.pid))
      .value("device", opt(h.device))
      .value("stream_id", std::to_string(h.stream_id))
      .value("sq_id", opt(h.sq_id))
      .value("task_id", std::to_string(last.task_id))
      .value("sq_head", opt(last.sq_head))
      .value("flip_num", opt(last.flip_num))
      .value("pending_num", std::to_string(last.pending_num))
      .value("samples", std::to_string(samples))
      .value("first_utc", utc_text(first.time))
      .value("last_utc", utc_text(last.time))
      .value("first_local", local_text(first.time))
      .value("last_local", local_text(last.time))
      .value("span_s", std::to_string((local_us(last.time) - local_us(first.time)) / 1000000))
      .value("variant", last.old_variant ? "stream_id,task_id,pendingNum"
                                         : "stream_id,sq_id,task_id,sqHead,flip_num,pendingNum");
}

std::string values_text(const StallReport& r) {
  if (r.sq_head)
    return fmt::format("task_id={}, sqHead={}, flip_num={}, pendingNum={}", r.task_id, *r.sq_head,
                       opt(r.flip_num), r.pending_num);
  return fmt::format("task_id={}, pendingNum={}", r.task_id, r.pending_num);
}

std::string zone_note(const StallReport& r) {
  if (!r.time.time.known())
    return " Times are the host's local wall clock; its zone is unknown (no bundle zone; "
           "--utc-offset sets one), so UTC times are not given.";
  if (r.time.time.basis == TimeBasis::local_assumed_zone)
    return " UTC times rest on an assumed zone (--utc-offset).";
  return "";
}

Finding stalled_finding(const StreamHistory& h, const FindingTexts& texts) {
  const StallReport& first = *h.samples[h.frozen_from];
  const StallReport& last = *h.samples.back();
  size_t frozen = h.samples.size() - h.frozen_from;
  Finding f;
  f.id = "stream-stall";
  f.severity = Severity::error;
  f.confidence = frozen >= 3 && !h.clock_backwards ? Confidence::high : Confidence::medium;
  f.host = h.host;
  f.observed = fmt::format(
      "{} three-minute reports for {} from {} to {} (UTC {} to {}) all show {}: the queue head "
      "did not move and the backlog did not fall.",
      frozen, stream_label(h), local_text(first.time), local_text(last.time), utc_text(first.time),
      utc_text(last.time), values_text(last));
  if (h.frozen_from > 0)
    f.observed += fmt::format(" The {} earlier report(s) moved, so the stream stopped after them.",
                              h.frozen_from);
  if (h.duplicates) f.observed += fmt::format(" {} identical copies of these lines (run/, debug/, stdout) counted once.", h.duplicates);
  if (h.clock_backwards)
    f.observed += " The clock went backwards between reports: they are ordered by their place in "
                  "the file, not by time.";
  if (!h.sync_timeouts.empty())
    f.observed += fmt::format(" {} hard `Stream synchronize timeout` line(s) for the same stream.",
                              h.sync_timeouts.size());
  f.observed += zone_note(first);
  render_finding_words(f, texts,
                       {{"stream_id", std::to_string(h.stream_id)},
                        {"pid", std::to_string(h.pid)},
                        {"span_s", std::to_string((local_us(last.time) - local_us(first.time)) / 1000000)},
                        {"reports", std::to_string(frozen)},
                        {"first_local", local_text(first.time)},
                        {"task_id", std::to_string(last.task_id)},
                        {"plog", first.evidence.entry},
                        {"npu", h.device ? std::to_string(*h.device) : "<npu id>"}});
  f.evidence.push_back(first.evidence);
  if (frozen > 2) f.evidence.push_back(h.samples[h.frozen_from + 1]->evidence);
  f.evidence.push_back(last.evidence);
  for (size_t i = 0; i < h.sync_timeouts.size() && i < 3; ++i)
    f.evidence.push_back(h.sync_timeouts[i]->evidence);
  add_sample_values(f, h, first, last, frozen);
  f.value("sync_timeouts", std::to_string(h.sync_timeouts.size()));
  f.value("clock_backwards", h.clock_backwards ? "true" : "false");
  return f;
}

Finding progressing_finding(const StreamHistory& h, const FindingTexts& texts) {
  const StallReport& first = *h.samples.front();
  const StallReport& last = *h.samples.back();
  Finding f;
  f.id = "stream-stall/progressing";
  f.severity = Severity::info;
  f.confidence = Confidence::medium;
  f.host = h.host;
  f.observed = fmt::format("{} three-minute reports for {} from {} to {}: {} -> {}.",
                           h.samples.size(), stream_label(h), local_text(first.time),
                           local_text(last.time), values_text(first), values_text(last));
  if (h.duplicates) f.observed += fmt::format(" {} identical copies counted once.", h.duplicates);
  if (h.clock_backwards) f.observed += " The clock went backwards between reports: ordered by file position.";
  f.observed += zone_note(first);
  render_finding_words(f, texts,
                       {{"stream_id", std::to_string(h.stream_id)},
                        {"pid", std::to_string(h.pid)},
                        {"reports", std::to_string(h.samples.size())}});
  f.evidence = {first.evidence, last.evidence};
  add_sample_values(f, h, first, last, h.samples.size());
  return f;
}

Finding single_finding(const StreamHistory& h, const FindingTexts& texts) {
  const StallReport& r = *h.samples.front();
  Finding f;
  f.id = "stream-stall/single-sample";
  f.severity = Severity::info;
  f.confidence = Confidence::low;
  f.host = h.host;
  f.observed = fmt::format("One three-minute report for {} at {}: {}.", stream_label(h),
                           local_text(r.time), values_text(r)) + zone_note(r);
  render_finding_words(f, texts, {{"stream_id", std::to_string(h.stream_id)}, {"pid", std::to_string(h.pid)}});
  f.evidence = {r.evidence};
  add_sample_values(f, h, r, r, 1);
  return f;
}

Finding sync_timeout_finding(const std::string& host, const StreamSyncTimeout& t, const FindingTexts& texts) {
  Finding f;
  f.id = "stream-stall/sync-timeout";
  f.severity = Severity::warning;
  f.confidence = Confidence::medium;
  f.host = host;
  f.observed = fmt::format("`Stream synchronize timeout` for pid {} device {} stream {} at {} "
                           "(timeout={} ms, tryCount={}); no three-minute report of that stream.",
                           t.origin.pid, opt(t.device_id), t.stream_id, local_text(t.time),
                           opt(t.timeout_ms), opt(t.try_count));
  render_finding_words(f, texts,
                       {{"stream_id", std::to_string(t.stream_id)}, {"pid", std::to_string(t.origin.pid)}});
  f.evidence = {t.evidence};
  f.value("pid", std::to_string(t.origin.pid))
      .value("device", opt(t.device_id))
      .value("stream_id", std::to_string(t.stream_id))
      .value("timeout_ms", opt(t.timeout_ms))
      .value("try_count", opt(t.try_count))
      .value("first_utc", utc_text(t.time));
  return f;
}

}  // namespace

// The stall ends when the runtime gives up on the stream: `ErrCode=107020, desc=[task timeout]`
// and the same failure in ACL, torch_npu and the job (unexplained-errors takes those as one).
// A 107020 of the stalled process from the first frozen report to one report period after
// the last is that end, not an error of its own.
void explain_end_of_stall(const HostGroup& group, const StreamHistory& h, Finding& f) {
  constexpr int64_t kPeriodUs = 4LL * 60 * 1000000;  // the three-minute period, with slack
  int64_t from = local_us(h.samples[h.frozen_from]->time);
  int64_t to = local_us(h.samples.back()->time) + kPeriodUs;
  for (const BundleFacts* b : group.bundles)
    for (const auto& e : b->logs.error_codes) {
      if (e.origin.pid != h.pid || e.code != "107020" || !e.time.valid) continue;
      int64_t t = local_us(e.time);
      if (t >= from && t <= to) f.explains.push_back(EvidenceRef{e.evidence.entry, e.evidence.line, 0, {}});
    }
}

void analyze_stream_stall(const AnalysisContext& ctx, std::vector<Finding>& findings) {
  const EvidenceSet& evidence = ctx.evidence;
  for (const HostGroup& group : evidence.groups()) {
    auto histories = stream_histories(group);
    std::set<const StreamSyncTimeout*> attached;
    for (const auto& h : histories) {
      for (const auto* t : h.sync_timeouts) attached.insert(t);
      switch (h.verdict) {
        case StreamVerdict::stalled:
          findings.push_back(stalled_finding(h, ctx.finding_texts));
          explain_end_of_stall(group, h, findings.back());
          break;
        case StreamVerdict::progressing: findings.push_back(progressing_finding(h, ctx.finding_texts)); break;
        case StreamVerdict::single_sample: findings.push_back(single_finding(h, ctx.finding_texts)); break;
      }
    }
    std::set<std::tuple<int64_t, int64_t, int64_t, int64_t>> seen;
    for (const auto* t : attached)
      seen.insert({t->origin.pid, t->stream_id, local_us(t->time), t->try_count.value_or(-1)});
    for (const auto* b : group.bundles)
      for (const auto& t : b->logs.sync_timeouts) {
        if (attached.count(&t)) continue;
        if (!seen.insert({t.origin.pid, t.stream_id, local_us(t.time), t.try_count.value_or(-1)}).second)
          continue;
        findings.push_back(sync_timeout_finding(group.host, t, ctx.finding_texts));
      }
  }
}

}  // namespace triage
