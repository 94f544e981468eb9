#include "parsers/job/error_lines.h"

#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace triage {
namespace {

using LineKey = std::pair<std::string_view, uint64_t>;  // entry, line

bool job_error(const JobEvent& e) {
  switch (e.kind) {
    case JobEventKind::npu_out_of_memory:
    case JobEventKind::undefined_symbol:
    case JobEventKind::library_missing:
    case JobEventKind::acl_call_failed:
    case JobEventKind::dcmi_error:
    case JobEventKind::driver_error:
    case JobEventKind::report_line:
    case JobEventKind::level_line:  // only error levels are kept as such (knowledge/error-levels.tsv)
      return true;
    case JobEventKind::component_error:
    case JobEventKind::app_log:
    case JobEventKind::id_values:
    case JobEventKind::framework_log: {  // their ERROR records and worse; WARNING ones are not errors
      // MindSpore logs a fatal failure at CRITICAL or EXCEPTION (`[CRITICAL] DEVICE(...)`).
      for (std::string_view level : {"[ERROR]", "[CRITICAL]", "[EXCEPTION]", "[FATAL]"}) {
        size_t at = e.evidence.excerpt.find(level);
        if (at != std::string::npos && at < 64) return true;
      }
      return false;
    }
    case JobEventKind::c10_raised_from:  // part of an exception the traceback reader counts
    case JobEventKind::acl_device:
    case JobEventKind::log_origin:
    case JobEventKind::repl_input:
      return false;
  }
  return false;
}

}  // namespace

void job_error_lines(const BundleFacts& b, ErrorLineSink& out) {
  const PythonFacts& py = b.python;
  auto stream_ids = [&](size_t s, ErrorLine* l) {
    if (s >= py.streams.size()) return;
    if (py.streams[s].pid && !l->pid) l->pid = py.streams[s].pid;
    if (py.streams[s].rank && !l->rank) l->rank = *py.streams[s].rank;
  };
  for (const auto& r : py.error_reports) {
    ErrorLine* l = out.add("job", r.evidence);
    if (!l) continue;
    if (!r.evidence_header.entry.empty()) out.take(r.evidence_header);
    l->also = r.evidence_header.entry.empty() ? nullptr : &r.evidence_header;
    l->module = "CANN error report";
    l->report = &r;
    l->code = r.code;
    l->message = r.message;
    if (r.has_time) l->first = l->last = r.time.known() ? error_time_text(r.time) : error_time_text(r.local);
    l->pid = r.pid;
    stream_ids(r.stream, l);
  }
  for (const auto& e : py.err_lines) {
    ErrorLine* l = out.add("job", e.evidence);
    if (!l) continue;
    l->module = e.submodule.empty() ? "torch_npu" : e.submodule;
    l->code = e.code;
    l->message = e.text;
    l->first = l->last = e.time.known() ? error_time_text(e.time) : error_time_text(e.local);
    if (e.pid) l->pid = e.pid;
    l->device = e.device;
    if (e.rank >= 0) l->rank = e.rank;
    stream_ids(e.stream, l);
  }
  for (const auto& t : py.torch_errors) {
    ErrorLine* l = out.add("job", t.evidence);
    if (!l) continue;
    l->module = "torch_npu";
    l->code = t.error_code ? std::to_string(*t.error_code) : std::string();
    l->message = t.call.empty() ? t.evidence.excerpt : t.reason.empty() ? t.call : t.call + ": " + t.reason;
    stream_ids(t.stream, l);
  }
  // The exception finally raised: the last complete one of each chain (a paste may cut the
  // chain's last traceback before its exception line).
  std::map<size_t, const PythonTraceback*> raised;
  for (const auto& t : py.tracebacks)
    if (t.complete) raised[t.chain] = &t;
  for (const auto& [chain, tp] : raised) {
    const PythonTraceback& t = *tp;
    ErrorLine* l = out.add("job", t.evidence_exception);
    if (!l) continue;
    l->module = "python";
    l->code = t.exception_type;
    l->message = t.message;
    l->first = l->last = error_time_text(t.anchor.time);
    stream_ids(t.stream, l);
  }
  // A chain whose every traceback the paste cut before its exception line (frames, no
  // `Error: ...`): an exception was raised, but what it was is not in the input. It is an
  // error line no finding explains, never "no fault found"; its innermost frame says where.
  // A logger's error record that prints the traceback right after its first line (vLLM's
  // `ERROR ... WorkerProc failed to start.`) is already that line's error: not counted twice.
  std::map<std::pair<size_t, std::string_view>, std::vector<uint64_t>> error_records;  // stream, entry -> lines
  for (const auto& e : py.job_events)
    if (e.kind == JobEventKind::level_line) error_records[{e.stream, e.evidence.entry}].push_back(e.evidence.line);
  constexpr uint64_t kRecordToTraceback = 2;  // the record's line, at most one line between
  auto follows_record = [&](const PythonTraceback& t) {
    auto it = error_records.find({t.stream, t.evidence_start.entry});
    if (it == error_records.end()) return false;
    for (uint64_t line : it->second)
      if (line < t.evidence_start.line && t.evidence_start.line - line <= kRecordToTraceback) return true;
    return false;
  };
  std::map<size_t, const PythonTraceback*> cut;
  for (const auto& t : py.tracebacks)
    if (t.truncated && t.header_seen && !t.frames.empty() && !raised.count(t.chain)) cut[t.chain] = &t;
  for (const auto& [chain, tp] : cut) {
    const PythonTraceback& t = *tp;
    if (follows_record(t)) continue;
    ErrorLine* l = out.add("job", t.evidence_start);
    if (!l) continue;
    const PyFrame& f = t.frames.back();
    l->module = "python";
    l->message = "traceback cut before its exception line; innermost frame " + f.file + ":" +
                 std::to_string(f.line) + (f.function.empty() ? "" : " in " + f.function);
    stream_ids(t.stream, l);
  }
  // Job-output failure lines (OOM, loader errors, ACL / DCMI / driver return codes, MindCluster
  // component and MindSpore ERROR records, report lines whose header was cut away, and
  // error-level lines of unknown shape).
  for (const auto& e : py.job_events) {
    if (!job_error(e)) continue;
    ErrorLine* l = out.add("job", e.evidence);
    if (!l) continue;
    l->module = !e.component.empty()                 ? e.component
                : e.kind == JobEventKind::level_line ? e.form  // `vLLM logger`, `[ERROR] line`
                                                     : std::string(to_string(e.kind));
    l->code = e.code;
    // An error-level line's own message (its level, time and file:line are the group's
    // module and times); the others' whole line.
    l->message = e.kind == JobEventKind::level_line && !e.call.empty() ? e.call : e.evidence.excerpt;
    if (!e.time.empty()) l->first = l->last = e.time;
    l->count += e.repeats;  // a storm's folded lines (level_line)
    l->pid = e.pid;
    if (e.device) l->device = *e.device;
    if (e.rank) l->rank = *e.rank;
    stream_ids(e.stream, l);
  }
  // A c10 error line is followed by where C++ raised it and its frames: the group names that
  // function and frame #0's library, so the report says which layer threw.
  std::map<LineKey, const JobEvent*> raised_from;
  for (const auto& e : py.job_events)
    if (e.kind == JobEventKind::c10_raised_from) raised_from[{e.evidence.entry, e.evidence.line}] = &e;
  for (const auto& w : py.warnings) {
    if (w.level != 'E' || w.python_warning) continue;
    ErrorLine* l = out.add("job", w.evidence);
    if (!l) continue;
    if (auto it = raised_from.find({w.evidence.entry, w.evidence.line + 1}); it != raised_from.end())
      l->raised_from = it->second;
    l->module = "c10";
    l->code = w.error_code ? std::to_string(*w.error_code) : std::string();
    l->message = w.message;
    l->first = l->last = error_time_text(w.time);
    stream_ids(w.stream, l);
  }
}

}  // namespace triage
