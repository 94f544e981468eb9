// The host's CPU contention (issue 37, slow not stuck): system/loadavg (/proc/loadavg:
// "0.52 0.58 0.59 3/1234 56789"), system/pressure-cpu (/proc/pressure/cpu: "some avg10=1.23
// avg60=... avg300=... total=N", "full ..."), system/cpu-online ("0-95,128-191"), and per
// selected process processes/<pid>/schedstat ("<ns on cpu> <ns waiting to run> <slices>") and
// the *_ctxt_switches lines of processes/<pid>/status. Facts: LoadFacts (model/facts_load.h).
#include <charconv>

#include "parsers/collector/process_parsers.h"
#include "parsers/common/number_text.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace {
using sv = std::string_view;

// Blank-separated fields of `t`, at most N.
template <size_t N>
size_t fields_of(sv t, sv (&out)[N]) {
  size_t n = 0, pos = 0;
  while (pos < t.size() && n < N) {
    while (pos < t.size() && (t[pos] == ' ' || t[pos] == '\t')) ++pos;
    size_t end = pos;
    while (end < t.size() && t[end] != ' ' && t[end] != '\t') ++end;
    if (end > pos) out[n++] = t.substr(pos, end - pos);
    pos = end;
  }
  return n;
}

// "0-95,128-191" -> 160; nullopt when a part is not a number or range.
std::optional<int64_t> cpu_list_count(sv t) {
  int64_t total = 0;
  while (!t.empty()) {
    size_t comma = t.find(',');
    sv part = t.substr(0, comma);
    size_t dash = part.find('-');
    auto a = parse_int(part.substr(0, dash));
    auto b = dash == sv::npos ? a : parse_int(part.substr(dash + 1));
    if (!a || !b || *b < *a || *a < 0) return std::nullopt;
    total += *b - *a + 1;
    if (comma == sv::npos) break;
    t.remove_prefix(comma + 1);
  }
  return total > 0 ? std::optional<int64_t>(total) : std::nullopt;
}

bool read_loadavg(ParseContext& ctx, CpuLoad& c, sv t, const TextLine& line) {
  sv f[6];
  if (fields_of(t, f) != 5) return false;
  auto l1 = to_double(f[0]), l5 = to_double(f[1]), l15 = to_double(f[2]);
  size_t slash = f[3].find('/');
  if (!l1 || !l5 || !l15 || slash == sv::npos) return false;
  auto run = parse_int(f[3].substr(0, slash)), tasks = parse_int(f[3].substr(slash + 1));
  if (!run || !tasks || !parse_int(f[4])) return false;
  c.load1 = l1, c.load5 = l5, c.load15 = l15, c.runnable = run, c.tasks = tasks;
  c.load_evidence = evidence_at(ctx, line);
  return true;
}

// "some avg10=1.23 avg60=0.50 avg300=0.10 total=12345" (and "full ...").
bool read_pressure(ParseContext& ctx, CpuLoad& c, sv t, const TextLine& line) {
  sv f[6];
  size_t n = fields_of(t, f);
  if (n < 4 || (f[0] != "some" && f[0] != "full")) return false;
  std::optional<double> avg10, avg60;
  for (size_t i = 1; i < n; ++i) {
    if (f[i].starts_with("avg10=")) avg10 = to_double(f[i].substr(6));
    else if (f[i].starts_with("avg60=")) avg60 = to_double(f[i].substr(6));
  }
  if (!avg10 || !avg60) return false;
  if (f[0] == "some") {
    c.psi_some_avg10 = avg10, c.psi_some_avg60 = avg60;
    c.psi_evidence = evidence_at(ctx, line);
  } else {
    c.psi_full_avg10 = avg10;
  }
  return true;
}

}  // namespace

void parse_cpu_load(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src, size_t{1} << 16);
  if (refuse_tool_error(ctx, text)) return;
  CpuLoad c = ctx.facts.load.cpu.value_or(CpuLoad{});
  bool any = false;
  for_each_line(text, [&](const TextLine& line) {
    sv t = trim(line.text);
    if (t.empty()) return void(++ctx.stats.parsed);
    bool ok = false;
    if (t.starts_with("some ") || t.starts_with("full ")) {
      ok = read_pressure(ctx, c, t, line);
      if (ok) ctx.stats.variant = "pressure-cpu";
    } else if (t.find('/') != sv::npos) {
      ok = read_loadavg(ctx, c, t, line);
      if (ok) ctx.stats.variant = "loadavg";
    } else if (auto n = cpu_list_count(t)) {
      c.online_cpus = n, c.online_text = std::string(t.substr(0, 64));
      c.online_evidence = evidence_at(ctx, line);
      ctx.stats.variant = "cpu-online";
      ok = true;
    }
    if (!ok) return note_malformed(ctx, line);
    any = true;
    ++ctx.stats.parsed;
    ++ctx.stats.lines_recognised;
  });
  if (any) ctx.facts.load.cpu = std::move(c);
}

void parse_proc_schedstat(ParseContext& ctx, ByteSource& src) {
  std::string text;
  ProcessInfo* p = read_process_file(ctx, src, text, size_t{1} << 12);
  if (!p) return;
  bool done = false;
  for_each_line(text, [&](const TextLine& line) {
    sv t = trim(line.text);
    if (t.empty()) return void(++ctx.stats.parsed);
    sv f[4];
    if (done || fields_of(t, f) != 3) return note_malformed(ctx, line);
    auto run = parse_int(f[0]), wait = parse_int(f[1]), slices = parse_int(f[2]);
    if (!run || !wait || !slices || *run < 0 || *wait < 0) return note_malformed(ctx, line);
    ProcessSched& s = ctx.facts.load.sched_of(p->pid);
    s.run_ns = run, s.wait_ns = wait, s.timeslices = slices;
    s.schedstat_evidence = evidence_at(ctx, line);
    s.entry = s.schedstat_evidence.entry;
    done = true;
    ++ctx.stats.parsed;
  });
}

// /proc/<pid>/status: "Name:\tpython", ...; the context switches are kept, the rest is read.
void parse_proc_status(ParseContext& ctx, ByteSource& src) {
  std::string text;
  ProcessInfo* p = read_process_file(ctx, src, text);
  if (!p) return;
  std::optional<int64_t> vol, nonvol;
  EvidenceRef ev;
  for_each_line(text, [&](const TextLine& line) {
    sv t = trim(line.text);
    if (t.empty()) return void(++ctx.stats.parsed);
    size_t colon = t.find(':');
    if (colon == sv::npos || colon == 0) return note_malformed(ctx, line);
    sv k = t.substr(0, colon), v = trim(t.substr(colon + 1));
    if (k == "voluntary_ctxt_switches") {
      vol = parse_int(v);
      if (!vol) return note_malformed(ctx, line);
    } else if (k == "nonvoluntary_ctxt_switches") {
      nonvol = parse_int(v);
      if (!nonvol) return note_malformed(ctx, line);
      ev = evidence_at(ctx, line);
    }
    ++ctx.stats.parsed;
  });
  if (!vol && !nonvol) return;
  ProcessSched& s = ctx.facts.load.sched_of(p->pid);
  s.voluntary = vol, s.nonvoluntary = nonvol;
  s.switches_evidence = ev;
  if (s.entry.empty()) s.entry = ev.entry;
}

}  // namespace triage
