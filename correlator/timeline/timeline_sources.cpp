// What each source of one bundle puts on the timeline (docs/timeline.md "Sources"):
// signature hits, stall reports, sync timeouts, error codes (plog, device log), kernel lines
// at warning or above, installer lines, module file times, process starts, probe runs and
// the collection itself. One occurrence per line; collapsing happens later.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <optional>
#include <utility>

#include "correlator/timeline/timeline_internal.h"
#include "model/facts_events.h"
#include "model/zones.h"
#include "parsers/common/log_text.h"

namespace triage {

namespace {

using sv = std::string_view;
using LineKey = std::pair<std::string, uint64_t>;  // entry, line

std::string time_note_of(const Timestamp& t, bool approximate = false) {
  switch (t.basis) {
    case TimeBasis::local_assumed_zone: return "local time, zone assumed";
    case TimeBasis::boot_relative: return "boot-relative (btime + seconds since boot)";
    case TimeBasis::year_estimated: return "year estimated";
    case TimeBasis::unknown: return "no usable time";
    default: return approximate ? "approximate" : "";
  }
}

// The message part of a plog line: what follows `[file:line]tid ` after the time; the whole
// text when the line has another shape.
sv plog_text(sv line) {
  size_t paren = line.find("):");
  if (paren == sv::npos) return line;
  size_t open = line.find(" [", paren);
  if (open == sv::npos) return line;
  size_t close = line.find(']', open);
  if (close == sv::npos) return line;
  sv rest = line.substr(close + 1);
  while (!rest.empty() && rest.front() >= '0' && rest.front() <= '9') rest.remove_prefix(1);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  return rest.empty() ? line : rest;
}

Severity journal_priority_severity(sv p) {
  // journal PRIORITY digits, or syslog facility.level ("kern.err")
  if (p.size() == 1 && p[0] >= '0' && p[0] <= '7') {
    if (p[0] <= '2') return Severity::critical;
    if (p[0] == '3') return Severity::error;
    if (p[0] == '4') return Severity::warning;
    return Severity::info;
  }
  size_t dot = p.find('.');
  sv level = dot == sv::npos ? p : p.substr(dot + 1);
  if (level == "emerg" || level == "alert" || level == "crit") return Severity::critical;
  if (level == "err" || level == "error") return Severity::error;
  if (level == "warning" || level == "warn") return Severity::warning;
  return Severity::info;
}

Severity kernel_event_severity(const KernelEvent& ev) {
  Severity s = journal_priority_severity(ev.priority);
  if (ev.ascend && ev.ascend->error_tag) s = std::max(s, Severity::error);
  if (ev.module_failure && ev.module_failure->problem != ModuleLoadProblem::out_of_tree_taint)
    s = std::max(s, Severity::error);
  if (ev.fault_manager) s = std::max(s, Severity::warning);
  return s;
}

std::string_view lane_of_hit_source(sv source) {
  if (source == "plog") return "plog";
  if (source == "journal_json" || source == "journal_text") return "journal";
  if (source == "dmesg_raw" || source == "dmesg_human") return "dmesg";
  if (source == "syslog") return "syslog";
  if (source == "device_kernel") return "device-log";
  return "plog";
}

class Collector {
 public:
  Collector(const BundleFacts& f, size_t bundle, const AnalyzeOptions& options, EarlyFold* fold)
      : facts_(f), bundle_(bundle), zone_(zone_for_process(f, std::nullopt, options)), fold_(fold) {
    for (const auto& p : f.logs.plog_entries)
      if (p.kind == SourceKind::device_log) device_entries_.insert({p.entry, true});
    index_line_facts();
  }

  // The occurrence of a line, filled by the caller until the next add(): then it is final
  // and joins the list (or, folding early, the row it collapses into).
  TimelineOccurrence& add(sv source, std::string kind, Severity severity, std::string message,
                          const Timestamp& time, const EvidenceRef& evidence,
                          bool approximate = false) {
    commit();
    pending_indexed_ = indexable(evidence) && !seen_line(evidence);  // the first occurrence of its line
    pending_ = TimelineOccurrence();
    has_pending_ = true;
    TimelineOccurrence& o = pending_;
    o.bundle = bundle_;
    TimelineEvent& e = o.event;
    e.source = source;
    e.kind = std::move(kind);
    e.severity = severity;
    e.message = make_excerpt(message);
    e.host = facts_.host;
    e.evidence = evidence;
    o.dated = time.known();
    if (o.dated) {
      e.first_utc_us = e.last_utc_us = time.utc_us;
      if (zone_) e.local_offset_seconds = zone_->rule.offset_at_utc(time.utc_us);
    }
    e.time_note = time_note_of(time, approximate);
    return o;
  }

  // A fact standing for later lines of its template (FoldedRepeats): one row with their
  // count and last time, as a collapsed run.
  static void count_repeats(TimelineOccurrence& o, const FoldedRepeats& r) {
    if (r.lines == 0) return;
    o.event.count = 1 + r.lines;
    if (o.dated && r.last.time.known())
      o.event.last_utc_us = std::max(o.event.first_utc_us, r.last.time.utc_us);
  }

  // Whether a line already has its occurrence (hit and plog-fact lines only: the phases that
  // look lines up come first).
  bool seen_line(const EvidenceRef& ev) const {
    if (has_pending_ && pending_indexed_ && same_line(pending_.event.evidence, ev)) return true;
    return find_line(ev) != nullptr;
  }

  // The occurrence (or row, folding early) holding a line; nullptr when it has none or the
  // line was undated and only counted.
  TimelineOccurrence* occurrence_at(const EvidenceRef& ev) {
    if (has_pending_ && pending_indexed_ && same_line(pending_.event.evidence, ev)) return &pending_;
    const LineAt* at = find_line(ev);
    return at && at->index != kCounted ? &out_[at->index] : nullptr;
  }

  static uint64_t line_hash(const EvidenceRef& ev) { return mix64(fnv1a(ev.entry), ev.line); }

  sv plog_lane(const EvidenceRef& ev) const {
    return device_entries_.count(ev.entry) ? "device-log" : "plog";
  }

  void signature_hits() {
    // Kernel hits: the kernel event of the same line gives the message and its other copies.
    std::map<LineKey, const KernelEvent*> kernel_by_line;
    for (const auto& ev : facts_.logs.kernel_events)
      kernel_by_line.emplace(LineKey{ev.evidence.entry, ev.evidence.line}, &ev);
    for (const SignatureHit& h : facts_.logs.signature_hits) {
      Severity sev = parse_severity(h.severity).value_or(Severity::warning);
      std::string message;
      sv lane;
      const KernelEvent* kev = nullptr;
      if (h.source.empty() || h.source == "plog") {  // plog hits leave the source empty
        lane = plog_lane(h.evidence);
        message = std::string(plog_text(h.evidence.excerpt));
      } else {
        lane = lane_of_hit_source(h.source);
        auto it = kernel_by_line.find(LineKey{h.evidence.entry, h.evidence.line});
        if (it != kernel_by_line.end()) kev = it->second;
        message = kev ? kev->message : h.evidence.excerpt;
      }
      if (seen_line(h.evidence)) {  // two signatures, one line
        if (TimelineOccurrence* same = occurrence_at(h.evidence)) same->event.severity = std::max(same->event.severity, sev);
        continue;
      }
      TimelineOccurrence& o = add(lane, "signature:" + h.id, sev, std::move(message), h.time.time,
                                  h.evidence, kev && kev->approximate);
      o.signature = h.id;
      count_repeats(o, h.repeats);
      if (h.pid) o.event.pid = h.pid;
      if (kev) o.also_seen = kev->also_seen;
      for (const auto& [k, v] : h.captures) {
        if (k == "stream_id") o.event.stream = parse_number(v);
        if (k == "device_id") o.event.device = parse_number(v);
      }
      apply_line_facts(o, h.evidence);
      if (kev) kernel_done_.insert({LineKey{kev->evidence.entry, kev->evidence.line}, true});
    }
  }

  // A stall, sync timeout or error code whose line has no occurrence yet starts one; every
  // fact of that line is applied to it at once, in this order, so it is final when added.
  void plog_facts() {
    for (const StallReport& f : facts_.logs.stalls)
      if (!seen_line(f.evidence))
        fact_line(plog_lane(f.evidence), "stall-report", Severity::warning, f.evidence, f.time.time, [&](auto& o) { stream_fields(o, f); });
    for (const StreamSyncTimeout& f : facts_.logs.sync_timeouts)
      if (!seen_line(f.evidence))
        fact_line(plog_lane(f.evidence), "sync-timeout", Severity::error, f.evidence, f.time.time, [&](auto& o) { stream_fields(o, f); });
    for (const ErrorCodeFact& f : facts_.logs.error_codes)
      if (!seen_line(f.evidence))
        fact_line(plog_lane(f.evidence), "error-code", Severity::error, f.evidence, f.time.time, [&](auto& o) { code_fields(o, f); });
  }

  // Warning/error plog lines no other fact kept, already collapsed per entry by the parser.
  // The same row in a run/ and a debug/ copy of one log is shown once.
  void plog_level_lines() {
    std::set<std::tuple<uint64_t, int64_t, int64_t, uint64_t>> seen;
    for (const PlogEntrySummary& p : facts_.logs.plog_entries)
      for (const PlogLevelLine& l : p.level_lines) {
        if (!seen.insert({l.key, l.first.time.utc_us, l.last.time.utc_us, l.count}).second) continue;
        Severity sev = l.level == PlogLevel::error ? Severity::error : Severity::warning;
        TimelineOccurrence& o = add(plog_lane(l.evidence), "log-line", sev,
                                    std::string(plog_text(l.evidence.excerpt)), l.first.time,
                                    l.evidence);
        o.event.pid = l.pid;
        o.event.count = l.count;
        if (o.dated && l.last.time.known())
          o.event.last_utc_us = std::max(o.event.first_utc_us, l.last.time.utc_us);
      }
  }

  void kernel_lines() {
    for (const KernelEvent& ev : facts_.logs.kernel_events) {
      if (kernel_done_.count(LineKey{ev.evidence.entry, ev.evidence.line})) continue;
      Severity sev = kernel_event_severity(ev);
      if (sev < Severity::warning) continue;  // other kernel lines are not events
      TimelineOccurrence& o = add(kernel_lane(ev.form), "log-line", sev, ev.message, ev.time,
                                  ev.evidence, ev.approximate);
      o.also_seen = ev.also_seen;
      if (ev.repeats.lines) {
        FoldedRepeats r{ev.repeats.lines, {}};
        r.last.time = ev.repeats.last;
        count_repeats(o, r);
      }
      if (ev.ascend && ev.ascend->pid) o.event.pid = ev.ascend->pid;
    }
  }

  void installers() {
    for (const InstallEvent& e : facts_.events.install) {
      std::string message = e.component.empty() ? e.message : e.component + ": " + e.message;
      add(e.log, "install", e.severity, std::move(message), e.time.time, e.evidence);
    }
  }

  void module_files() {
    for (const ModuleFile& f : facts_.modules.files) {
      std::optional<int64_t> mtime = f.is_link ? f.link_mtime : f.target_mtime;
      Timestamp t;
      if (mtime) {
        t.utc_us = *mtime * 1000000;
        t.basis = TimeBasis::utc_in_source;
      }
      size_t slash = f.path.rfind('/');
      std::string dir = slash == std::string::npos ? f.path : f.path.substr(0, slash);
      std::string message = fmt::format("module {} under {}", f.is_link ? "links" : "files", dir);
      if (f.is_link && f.target_exists == false) message += " (targets missing)";
      TimelineOccurrence& o = add("module-files", "module-files", Severity::info,
                                  std::move(message), t, f.evidence);
      o.event.time_note = f.is_link ? "link mtime" : "file mtime";
    }
  }

  void processes() {
    for (const auto& [pid, p] : facts_.processes.by_pid) {
      if (!p.start_time) continue;
      std::string message = fmt::format("process {} started", pid);
      if (p.stat && !p.stat->comm.empty()) message += " (" + p.stat->comm + ")";
      if (!p.argv.empty()) {
        message += ":";
        for (const auto& a : p.argv) {
          if (message.size() > EvidenceRef::kMaxExcerpt) break;
          message += ' ';
          message += a;
        }
      }
      EvidenceRef ev = p.stat ? p.stat->evidence : EvidenceRef{};
      TimelineOccurrence& o = add("process", "process-start", Severity::info, std::move(message),
                                  *p.start_time, ev, true);
      o.event.pid = pid;
    }
  }

  void probes() {
    for (const ProbeResult& p : facts_.devices.probes) {
      if (!p.started_utc_us) continue;
      Timestamp t;
      t.utc_us = *p.started_utc_us;
      t.basis = TimeBasis::utc_in_source;
      bool failed = p.rc && *p.rc != 0;
      Severity sev = p.timed_out == true ? Severity::error
                     : failed            ? Severity::warning
                                         : Severity::info;
      std::string message = fmt::format("probe {}", p.name);
      if (p.rc) message += fmt::format(": rc={}", *p.rc);
      if (p.timed_out == true) message += ", timed out";
      if (p.duration_ms) message += fmt::format(", {} ms", *p.duration_ms);
      if (p.error_code) message += fmt::format(", error code {}", *p.error_code);
      TimelineOccurrence& o = add("probe", "probe-run", sev, std::move(message), t, p.evidence);
      o.event.device = p.device;
      if (p.duration_ms) o.event.last_utc_us = t.utc_us + *p.duration_ms * 1000;
    }
  }

  void collection() {
    const SystemFacts& sys = facts_.system;
    if (!sys.collected_at_us) return;
    Timestamp t;
    t.utc_us = *sys.collected_at_us;
    t.basis = TimeBasis::utc_in_source;
    EvidenceRef ev;
    ev.entry = sys.collected_at_origin;
    add("collector", "collection", Severity::info, "bundle collected", t, ev);
  }

  // Without folding early, at most one occurrence per fact (two facts of one line share
  // theirs), so the vector is allocated once: its doubling held the old and the new buffer at
  // once, the timeline's peak on a plog-heavy bundle (issue 35: 14 MB and 28 MB together for
  // 1 GiB of real plog). Folding early, the list holds a row's worth and grows as it needs.
  void reserve_for_facts() {
    if (fold_) return;
    const LogFacts& logs = facts_.logs;
    size_t n = logs.signature_hits.size() + logs.stalls.size() + logs.sync_timeouts.size() +
               logs.error_codes.size() + facts_.events.install.size() + facts_.modules.files.size() +
               facts_.processes.by_pid.size() + facts_.devices.probes.size() + 1;
    for (const PlogEntrySummary& p : logs.plog_entries) n += p.level_lines.size();
    for (const KernelEvent& ev : logs.kernel_events) n += kernel_event_severity(ev) >= Severity::warning;
    out_.reserve(n);
  }

  std::vector<TimelineOccurrence> take() {
    commit();
    return std::move(out_);
  }

 private:
  static constexpr size_t kCounted = SIZE_MAX;  // an undated line folded early: counted only
  struct LineAt {
    uint64_t line, entry_check;  // the line number and a second hash of the entry's name
    size_t index;                // in out_
  };
  struct LineFact {
    uint64_t hash, line;
    uint8_t kind;  // 0 stall, 1 sync timeout, 2 error code: the order plog_facts() reads them in
    uint32_t index;
  };

  // The pending occurrence is final: into the list, or folded early into the occurrence of
  // its row (collapse_occurrences then finds it one row already).
  void commit() {
    if (!has_pending_) return;
    has_pending_ = false;
    const EvidenceRef& ev = pending_.event.evidence;
    const uint64_t line = ev.line, hash = line_hash(ev), check = entry_check(ev);
    size_t at = kCounted;
    if (!fold_) {
      out_.push_back(std::move(pending_));
      at = out_.size() - 1;
    } else if (!pending_.dated) {
      ++fold_->undated;  // collapse_occurrences counts an undated occurrence and drops it
    } else {
      at = fold_in(std::move(pending_));
    }
    if (pending_indexed_) by_line_.emplace(hash, LineAt{line, check, at});
  }

  // Occurrences of one collapse key between two boots of their host always end in one row
  // (docs/timeline.md): that row's occurrence is kept, with the sum of counts, the latest
  // last time, the highest severity and the earliest occurrence's text and evidence (the
  // first added among equal times, as collapse_occurrences' stable sort takes it). The
  // others are dropped as they come, save the lines a finding cites (kept to link the row).
  size_t fold_in(TimelineOccurrence&& o) {
    std::string key = occurrence_group_key(o);
    key += '\x1e';
    key += std::to_string(boots_before(o.event.host, o.event.first_utc_us));
    auto [it, added] = groups_.try_emplace(std::move(key), out_.size());
    if (added) {
      out_.push_back(std::move(o));
      return it->second;
    }
    TimelineOccurrence& row = out_[it->second];
    if (o.event.first_utc_us < row.event.first_utc_us) {
      std::swap(row.event, o.event);
      std::swap(row.also_seen, o.also_seen);
    }
    TimelineEvent& e = row.event;
    e.count += o.event.count;
    e.last_utc_us = std::max(e.last_utc_us, o.event.last_utc_us);
    e.severity = std::max(e.severity, o.event.severity);
    if (fold_->cited.count(line_key(o.event.evidence))) row.also_seen.push_back(std::move(o.event.evidence));
    for (EvidenceRef& ev : o.also_seen)
      if (fold_->cited.count(line_key(ev))) row.also_seen.push_back(std::move(ev));
    return it->second;
  }

  size_t boots_before(const std::string& host, int64_t t) const {
    size_t n = 0;
    for (const BootMark& b : fold_->boots) n += b.host == host && b.start_utc_us <= t;
    return n;
  }

  static bool indexable(const EvidenceRef& ev) { return !ev.entry.empty() && ev.line > 0; }
  static bool same_line(const EvidenceRef& a, const EvidenceRef& b) { return a.line == b.line && a.entry == b.entry; }

  // By a hash of (entry, line), checked by the line number and a second hash of the entry:
  // no copy of the entry's name per line.
  const LineAt* find_line(const EvidenceRef& ev) const {
    if (!indexable(ev)) return nullptr;
    auto it = by_line_.find(line_hash(ev));
    if (it == by_line_.end() || it->second.line != ev.line || it->second.entry_check != entry_check(ev)) return nullptr;
    return &it->second;
  }

  static uint64_t entry_check(const EvidenceRef& ev) { return std::hash<std::string_view>{}(ev.entry); }

  // The stall reports, sync timeouts and error codes by line, for apply_line_facts().
  void index_line_facts() {
    const LogFacts& logs = facts_.logs;
    auto put = [&](const EvidenceRef& ev, uint8_t kind, size_t i) {
      if (indexable(ev)) line_facts_.push_back({line_hash(ev), ev.line, kind, static_cast<uint32_t>(i)});
    };
    for (size_t i = 0; i < logs.stalls.size(); ++i) put(logs.stalls[i].evidence, 0, i);
    for (size_t i = 0; i < logs.sync_timeouts.size(); ++i) put(logs.sync_timeouts[i].evidence, 1, i);
    for (size_t i = 0; i < logs.error_codes.size(); ++i) put(logs.error_codes[i].evidence, 2, i);
    std::sort(line_facts_.begin(), line_facts_.end(), [](const LineFact& a, const LineFact& b) {
      return std::tie(a.hash, a.kind, a.index) < std::tie(b.hash, b.kind, b.index);
    });
  }

  // Every plog fact of the occurrence's line, in plog_facts()'s order (the fact that started
  // the occurrence among them: applying it twice changes nothing).
  void apply_line_facts(TimelineOccurrence& o, const EvidenceRef& ev) {
    if (!indexable(ev)) return;
    const uint64_t h = line_hash(ev);
    auto it = std::lower_bound(line_facts_.begin(), line_facts_.end(), h,
                               [](const LineFact& f, uint64_t key) { return f.hash < key; });
    const LogFacts& logs = facts_.logs;
    for (; it != line_facts_.end() && it->hash == h; ++it) {
      if (it->line != ev.line) continue;
      if (it->kind == 0 && logs.stalls[it->index].evidence.entry == ev.entry) stream_fields(o, logs.stalls[it->index]);
      if (it->kind == 1 && logs.sync_timeouts[it->index].evidence.entry == ev.entry)
        stream_fields(o, logs.sync_timeouts[it->index]);
      if (it->kind == 2 && logs.error_codes[it->index].evidence.entry == ev.entry) code_fields(o, logs.error_codes[it->index]);
    }
  }

  // The occurrence of a plog fact's line: its own fields when the line has no number (nothing
  // else can share it), else every fact of the line.
  template <class OwnFields>
  void fact_line(sv lane, const char* kind, Severity severity, const EvidenceRef& ev, const Timestamp& time,
                 OwnFields own) {
    TimelineOccurrence& o = add(lane, kind, severity, std::string(plog_text(ev.excerpt)), time, ev);
    own(o);
    apply_line_facts(o, ev);
  }

  // A stall report or a sync timeout: its pid, stream and device.
  template <class StreamFact>
  static void stream_fields(TimelineOccurrence& o, const StreamFact& s) {
    o.event.pid = s.origin.pid;
    o.event.stream = s.stream_id;
    if (s.device_id) o.event.device = s.device_id;
  }

  static void code_fields(TimelineOccurrence& o, const ErrorCodeFact& e) {
    o.event.pid = e.origin.pid;
    if (e.device_id) o.event.device = e.device_id;
    if (o.event.count <= 1) count_repeats(o, e.repeats);  // once when a signature took the line
  }

  static std::optional<int64_t> parse_number(const std::string& v) {
    int64_t n = 0;
    if (v.empty() || v.size() > 18) return std::nullopt;
    for (char c : v) {
      if (c < '0' || c > '9') return std::nullopt;
      n = n * 10 + (c - '0');
    }
    return n;
  }

  const BundleFacts& facts_;
  size_t bundle_;
  std::optional<ZoneChoice> zone_;
  EarlyFold* fold_;  // null: every occurrence is listed (several bundles)
  std::vector<TimelineOccurrence> out_;
  TimelineOccurrence pending_;  // the last added, until the next add() or take()
  bool has_pending_ = false, pending_indexed_ = false;
  // Hit and plog-fact lines by a hash of (entry, line): a copy of the entry's name per line
  // was a large part of a plog-heavy timeline's peak (issue 35).
  std::unordered_map<uint64_t, LineAt> by_line_;
  std::vector<LineFact> line_facts_;  // sorted by (hash, kind, index)
  std::unordered_map<std::string, size_t> groups_;  // folding early: collapse key and boot -> out_
  std::map<LineKey, bool> kernel_done_;
  std::map<std::string, bool> device_entries_;
};

}  // namespace

std::string_view kernel_lane(KernelLogForm form) {
  switch (form) {
    case KernelLogForm::journal_json:
    case KernelLogForm::journal_text: return "journal";
    case KernelLogForm::dmesg_raw:
    case KernelLogForm::dmesg_human: return "dmesg";
    case KernelLogForm::syslog: return "syslog";
    case KernelLogForm::device_kernel: return "device-log";
  }
  return "journal";
}

std::vector<TimelineOccurrence> timeline_occurrences(const BundleFacts& facts, size_t bundle,
                                                     const AnalyzeOptions& options, EarlyFold* fold) {
  Collector c(facts, bundle, options, fold);
  c.reserve_for_facts();
  c.signature_hits();  // first: a stall or error line that matched a signature is one row
  c.plog_facts();
  c.plog_level_lines();
  c.kernel_lines();
  c.installers();
  c.module_files();
  c.processes();
  c.probes();
  c.collection();
  return c.take();
}

}  // namespace triage
