// build_timeline on facts built in the test: which facts become rows on which lane, the
// host's local time beside UTC, boot marks, and skew on named pairs.
#include <catch2/catch.hpp>

#include <map>
#include <unordered_map>
#include <unordered_set>

#include "correlator/timeline/timeline.h"
#include "correlator/timeline/timeline_internal.h"
#include "model/facts_events.h"

using namespace triage;

namespace {

constexpr int64_t kS = 1000000;
int64_t utc(const char* iso) { return *parse_iso8601_utc_us(iso); }

Timestamp ts(int64_t us, TimeBasis basis = TimeBasis::local_known_zone) {
  Timestamp t;
  t.utc_us = us;
  t.basis = basis;
  return t;
}

LocalTime lt(int64_t us) {
  LocalTime l;
  l.valid = true;
  l.time = ts(us);
  return l;
}

EvidenceRef ev(std::string entry, uint64_t line, std::string excerpt = {}) {
  return EvidenceRef{std::move(entry), line, 0, std::move(excerpt)};
}

BundleFacts host_bundle() {
  BundleFacts b;
  b.host = "node07";
  b.system.host_zone = ZoneRule::from_posix("CST-8");
  b.system.host_zone_origin = "system/time.txt";
  b.system.collected_at_us = utc("2026-09-04T01:55:00Z");
  b.system.collected_at_origin = "manifest.json collected_at_utc";
  b.system.boot_id = "c69ba529-1b6d-440f-a2ad-985fff78b465";
  b.system.btime = utc("2026-09-01T00:12:10Z") / kS;
  return b;
}

const std::string kPlog = "logs/host/root/ascend/log/debug/plog/plog-48213_20260904092031548.log";
const std::string kStallLine =
    "[EVENT] RUNTIME(48213,python3):2026-09-04-09:25:58.614.493 [stream.cc:1402]48213 "
    "SynchronizeExecutedTask:report three minutes timeout! stream_id=47, sq_id=9, task_id=1280, "
    "sqHead=500, flip_num=0, pendingNum=781.";

void add_stall(BundleFacts& b, int64_t t, uint64_t line, bool with_hit) {
  StallReport s;
  s.origin.pid = 48213;
  s.stream_id = 47;
  s.device_id = 0;
  s.time = lt(t);
  s.evidence = ev(kPlog, line, kStallLine);
  b.logs.stalls.push_back(s);
  if (!with_hit) return;
  SignatureHit h;
  h.id = "stream-stall/three-minute-report";
  h.severity = "warning";
  h.source = "plog";
  h.pid = 48213;
  h.time = lt(t);
  h.evidence = s.evidence;
  b.logs.signature_hits.push_back(h);
}

const TimelineEvent* find(const Timeline& t, std::string_view kind, std::string_view source = {}) {
  for (const auto& e : t.events)
    if (e.kind == kind && (source.empty() || e.source == source)) return &e;
  return nullptr;
}

}  // namespace

TEST_CASE("timeline: a stall line that is also a signature hit is one row with its stream",
          "[timeline]") {
  BundleFacts b = host_bundle();
  int64_t t0 = utc("2026-09-04T01:25:58.614493Z");
  for (int i = 0; i < 7; ++i) add_stall(b, t0 + i * 180 * kS, 100 + i, true);
  EvidenceSet set;
  set.bundles.push_back(b);
  Finding f;
  f.id = "stream-stall";
  f.evidence.push_back(ev(kPlog, 103));
  Timeline t = build_timeline({f}, set, AnalyzeOptions{});
  const TimelineEvent* s = find(t, "signature:stream-stall/three-minute-report");
  REQUIRE(s);
  CHECK(s->source == "plog");
  CHECK(s->count == 7);
  CHECK(s->stream == 47);
  CHECK(s->pid == 48213);
  CHECK(s->device == 0);
  CHECK(s->severity == Severity::warning);
  CHECK(s->message.rfind("SynchronizeExecutedTask:report three minutes timeout!", 0) == 0);
  CHECK(s->local_offset_seconds == 8 * 3600);
  CHECK(format_with_offset(s->first_utc_us, *s->local_offset_seconds) ==
        "2026-09-04T09:25:58.614493+08:00");
  CHECK(s->finding_ids == std::vector<std::string>{"stream-stall"});
  CHECK(find(t, "stall-report") == nullptr);  // not a second row for the same lines
}

TEST_CASE("timeline: kernel lines at warning or above are events, others are not; skew is "
          "measured on the same line in journal and dmesg",
          "[timeline]") {
  BundleFacts b = host_bundle();
  int64_t boot = *b.system.btime * kS;
  for (int i = 0; i < 3; ++i) {
    KernelEvent k;
    k.form = KernelLogForm::journal_json;
    k.boot_id = b.system.boot_id;
    k.priority = "3";
    k.message = "drv_pcie_host: Unknown symbol soc_platform_get_chip_info (err -2)";
    k.uptime_s = 20.0 + i;
    // the journal's clock is 37 s slow; dmesg = btime + uptime is true
    k.time = ts(boot + (20 + i) * kS - 37 * kS, TimeBasis::utc_in_source);
    k.evidence = ev("kernel/journal-b0.jsonl", 10 + i);
    k.also_seen.push_back(ev("kernel/dmesg.txt", 40 + i));
    k.also_seen_copies.push_back({KernelLogForm::dmesg_raw, ts(boot + (20 + i) * kS, TimeBasis::boot_relative)});
    b.logs.kernel_events.push_back(k);
  }
  KernelEvent info;
  info.form = KernelLogForm::journal_json;
  info.priority = "6";
  info.message = "drv_pcie_host: loading out-of-tree module taints kernel.";
  info.time = ts(boot + 5 * kS, TimeBasis::utc_in_source);
  info.evidence = ev("kernel/journal-b0.jsonl", 5);
  b.logs.kernel_events.push_back(info);
  EvidenceSet set;
  set.bundles.push_back(b);
  Timeline t = build_timeline({}, set, AnalyzeOptions{});
  const TimelineEvent* k = find(t, "log-line", "journal");
  REQUIRE(k);
  CHECK(k->count == 3);
  CHECK(k->severity == Severity::error);
  CHECK(t.events.size() == 2);  // the kernel row and the collection; the info line is no event
  REQUIRE(t.skews.size() == 1);
  CHECK(t.skews[0].source_a == "dmesg");
  CHECK(t.skews[0].source_b == "journal");
  CHECK(t.skews[0].b_minus_a_seconds == Approx(-37.0));
  CHECK(t.skews[0].pairs == 3);
  CHECK(t.skews[0].a_evidence.entry == "kernel/dmesg.txt");
  CHECK(t.skews[0].b_evidence.entry == "kernel/journal-b0.jsonl");
}

TEST_CASE("timeline: installer lines, module files, process starts, probes and the collection "
          "each have their lane",
          "[timeline]") {
  BundleFacts b = host_bundle();
  InstallEvent ie;
  ie.log = "install-log";
  ie.component = "Driver";
  ie.message = "Driver_ko_install failed, details in : /var/log/ascend_seclog/ascend_install.log";
  ie.severity = Severity::error;
  ie.time = lt(utc("2026-08-29T08:22:11Z"));
  ie.evidence = ev("ascend/seclog/ascend_install.log", 39);
  b.events.install.push_back(ie);
  for (int i = 0; i < 3; ++i) {
    ModuleFile m;
    m.kver = "5.15.0-119-generic";
    m.path = "/lib/modules/5.15.0-119-generic/updates/dkms/m" + std::to_string(i) + ".ko";
    m.is_link = true;
    m.target_exists = false;
    m.link_mtime = utc("2026-06-12T02:16:37Z") / kS + i;
    m.evidence = ev("modules/tree.tsv", 2 + i);
    b.modules.files.push_back(m);
  }
  ProcessInfo p;
  p.pid = 48213;
  p.argv = {"python3", "train.py"};
  p.start_time = ts(utc("2026-09-04T01:20:28Z"), TimeBasis::boot_relative);
  b.processes.by_pid[48213] = p;
  ProbeResult pr;
  pr.name = "randn";
  pr.has_json = true;
  pr.started_utc_us = utc("2026-09-04T01:50:00Z");
  pr.rc = 124;
  pr.timed_out = true;
  pr.duration_ms = 60000;
  pr.device = 0;
  pr.evidence = ev("probes/randn.json", 1);
  b.devices.probes.push_back(pr);
  EvidenceSet set;
  set.bundles.push_back(b);
  Timeline t = build_timeline({}, set, AnalyzeOptions{});

  const TimelineEvent* inst = find(t, "install", "install-log");
  REQUIRE(inst);
  CHECK(inst->message.rfind("Driver: Driver_ko_install failed", 0) == 0);
  CHECK(inst->severity == Severity::error);
  CHECK(format_with_offset(inst->first_utc_us, *inst->local_offset_seconds) ==
        "2026-08-29T16:22:11+08:00");

  const TimelineEvent* mods = find(t, "module-files");
  REQUIRE(mods);
  CHECK(mods->count == 3);
  CHECK(mods->message == "module links under /lib/modules/5.15.0-119-generic/updates/dkms (targets missing)");
  CHECK(mods->last_utc_us - mods->first_utc_us == 2 * kS);
  CHECK(mods->time_note == "link mtime");

  const TimelineEvent* proc = find(t, "process-start");
  REQUIRE(proc);
  CHECK(proc->pid == 48213);
  CHECK(proc->message == "process 48213 started: python3 train.py");
  CHECK_FALSE(proc->time_note.empty());  // boot-relative: said so

  const TimelineEvent* probe = find(t, "probe-run");
  REQUIRE(probe);
  CHECK(probe->severity == Severity::error);
  CHECK(probe->last_utc_us - probe->first_utc_us == 60 * kS);
  CHECK(probe->message == "probe randn: rc=124, timed out, 60000 ms");

  REQUIRE(find(t, "collection", "collector"));
  CHECK(t.collection_utc_us == utc("2026-09-04T01:55:00Z"));
  // ordered on one axis
  for (size_t i = 1; i < t.events.size(); ++i)
    CHECK(t.events[i - 1].first_utc_us <= t.events[i].first_utc_us);
  // the current boot comes from boot.txt's btime when the journal's list is absent
  REQUIRE(t.boots.size() == 1);
  CHECK(t.boots[0].boot_id == b.system.boot_id);
  CHECK_FALSE(t.boots[0].after_previous);
}

TEST_CASE("timeline: boots of the journal's list; the collector's boot is not doubled",
          "[timeline]") {
  BundleFacts b = host_bundle();
  BootRecord r1;
  r1.index = -1;
  r1.boot_id = "1b43b9d1-53bc-4e40-abe0-4ff34d5a570e";
  r1.first_utc_us = utc("2026-08-19T01:02:17Z");
  BootRecord r0;
  r0.index = 0;
  r0.boot_id = b.system.boot_id;
  r0.first_utc_us = utc("2026-09-01T00:12:08Z");
  b.events.boots = {r1, r0};
  EvidenceSet set;
  set.bundles.push_back(b);
  Timeline t = build_timeline({}, set, AnalyzeOptions{});
  REQUIRE(t.boots.size() == 2);
  CHECK_FALSE(t.boots[0].after_previous);
  CHECK(t.boots[1].after_previous);
  CHECK(t.boots[1].start_utc_us == utc("2026-09-01T00:12:08Z"));
}

TEST_CASE("timeline: a line without a usable time is counted as undated", "[timeline]") {
  BundleFacts b = host_bundle();
  SignatureHit h;
  h.id = "stream-sync-timeout";
  h.severity = "error";
  h.source = "plog";
  h.evidence = ev(kPlog, 7, "Stream synchronize timeout");
  b.logs.signature_hits.push_back(h);  // time never converted (no zone for a loose file)
  EvidenceSet set;
  set.bundles.push_back(b);
  Timeline t = build_timeline({}, set, AnalyzeOptions{});
  CHECK(t.undated == 1);
  CHECK(find(t, "signature:stream-sync-timeout") == nullptr);
}

TEST_CASE("timeline: the analyze options' filter applies", "[timeline]") {
  BundleFacts b = host_bundle();
  add_stall(b, utc("2026-09-04T01:25:58Z"), 1, false);
  EvidenceSet set;
  set.bundles.push_back(b);
  AnalyzeOptions o;
  o.timeline.sources = {"plog"};
  Timeline t = build_timeline({}, set, o);
  REQUIRE(t.events.size() == 1);
  CHECK(t.events[0].kind == "stall-report");
  CHECK(t.filtered_out == 1);  // the collection row
}

namespace {

// Rows as the report shows them, and the rows each cited line links to.
std::vector<std::string> describe(const std::vector<TimelineEvent>& rows,
                                  const std::unordered_map<std::string, size_t>& line_to_row) {
  std::vector<std::string> out;
  for (const auto& e : rows)
    out.push_back(e.kind + "|" + e.message + "|" + std::to_string(e.first_utc_us) + "|" +
                  std::to_string(e.last_utc_us) + "|" + std::to_string(e.count) + "|" +
                  std::to_string(static_cast<int>(e.severity)) + "|" + std::to_string(e.pid.value_or(-1)) + "|" +
                  std::to_string(e.stream.value_or(-1)) + "|" + std::to_string(e.device.value_or(-1)) + "|" +
                  e.evidence.entry + ":" + std::to_string(e.evidence.line));
  std::map<std::string, size_t> sorted(line_to_row.begin(), line_to_row.end());
  for (const auto& [k, row] : sorted) out.push_back("link " + k + " -> " + std::to_string(row));
  return out;
}

}  // namespace

TEST_CASE("timeline: folding one bundle's occurrences as they are made gives the rows of "
          "collapsing them all",
          "[timeline]") {
  BundleFacts b = host_bundle();
  BootRecord r0, r1;
  r0.index = -1;
  r0.boot_id = "1b43b9d1-53bc-4e40-abe0-4ff34d5a570e";
  r0.first_utc_us = utc("2026-09-01T00:12:08Z");
  r1.index = 0;
  r1.boot_id = b.system.boot_id;
  r1.first_utc_us = utc("2026-09-04T02:00:00Z");  // a reboot in the middle of the stalls
  b.events.boots = {r0, r1};
  const int64_t t0 = utc("2026-09-04T01:25:58.614493Z");
  // Added out of time order (a later file first), hits on some stall lines, two at one time.
  for (int i = 20; i >= 0; --i) add_stall(b, t0 + i * 180 * kS, 100 + static_cast<uint64_t>(i), i % 3 == 0);
  add_stall(b, t0 + 1 * 180 * kS, 300, false);  // the time of line 101, its row's first: the first added stays
  ErrorCodeFact code;
  code.origin.pid = 48213;
  code.code = "507035";
  code.device_id = 1;
  code.time = lt(t0 + 5 * 180 * kS);
  code.evidence = ev(kPlog, 105, kStallLine);
  code.repeats.lines = 4;
  b.logs.error_codes.push_back(code);
  SignatureHit undated;
  undated.id = "stream-sync-timeout";
  undated.severity = "error";
  undated.source = "plog";
  undated.evidence = ev(kPlog, 7, "Stream synchronize timeout");
  b.logs.signature_hits.push_back(undated);

  const std::vector<BootMark> boots = merge_boots(timeline_boots(b));
  REQUIRE(boots.size() == 2);
  const std::unordered_set<std::string> cited{line_key(ev(kPlog, 104)), line_key(ev(kPlog, 115)),
                                              line_key(ev(kPlog, 300))};
  uint64_t undated_all = 0;
  std::unordered_map<std::string, size_t> links_all;
  auto all = timeline_occurrences(b, 0, AnalyzeOptions{});
  const size_t listed = all.size();
  auto rows_all = collapse_occurrences(std::move(all), boots, undated_all, links_all, &cited);

  EarlyFold fold{boots, cited};
  auto folded = timeline_occurrences(b, 0, AnalyzeOptions{}, &fold);
  CHECK(folded.size() < listed / 3);  // a row's worth, not a line's
  uint64_t undated_folded = fold.undated;
  std::unordered_map<std::string, size_t> links_folded;
  auto rows_folded = collapse_occurrences(std::move(folded), boots, undated_folded, links_folded, &cited);

  CHECK(undated_folded == undated_all);
  CHECK(undated_all == 1);
  CHECK(describe(rows_folded, links_folded) == describe(rows_all, links_all));
  CHECK(rows_all.size() >= 4);  // hits and stalls, each split by the reboot
  CHECK(links_all.size() == 3);
}
