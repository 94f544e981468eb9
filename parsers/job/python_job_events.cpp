// Job-output lines that are not tracebacks or CANN reports (parsers/job/job_lines.h), kept
// as JobEvent facts of the stream they were printed in; and the shapes of ordinary log
// records, which are recognised (counted) but carry no fact.
#include "model/package_rows.h"
#include "parsers/common/log_text.h"
#include "parsers/job/job_lines.h"
#include "parsers/job/pip_console.h"
#include "parsers/job/repl_input.h"
#include "parsers/plog/plog_line.h"
#include "parsers/plog/plog_parser.h"
#include "parsers/job/python_parser_state.h"

namespace triage::pyparse {

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool digits(std::string_view s, size_t pos, size_t n) {
  if (pos + n > s.size()) return false;
  for (size_t i = pos; i < pos + n; ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}
// `YYYY-MM-DD HH:MM:SS` at pos.
bool datetime_at(std::string_view s, size_t pos) {
  return digits(s, pos, 4) && s.size() > pos + 18 && s[pos + 4] == '-' && digits(s, pos + 5, 2) &&
         s[pos + 7] == '-' && digits(s, pos + 8, 2) && s[pos + 10] == ' ' &&
         digits(s, pos + 11, 2) && s[pos + 13] == ':' && digits(s, pos + 14, 2) &&
         s[pos + 16] == ':' && digits(s, pos + 17, 2);
}

// The CANN report MindSpore appends to its own record (`... 'Ascend Error Message'.Ascend Error
// Message:EI0002: The wait ...`): its header, read as any report header is.
std::optional<ReportHeader> mindspore_cann_report(std::string_view msg) {
  constexpr std::string_view kAscend = "Ascend Error Message:";
  size_t at = msg.find(kAscend);
  if (at == std::string_view::npos) return std::nullopt;
  return parse_report_header(msg.substr(at + kAscend.size()));
}

// The runtime result a MindSpore record quotes (`Malloc device memory failed,
// size[32212254720], ret[207001]`, `Call rt api rtStreamSynchronize failed, ret: 507011`).
// Six digits only: `ret[0]` or a size is no code.
std::string_view mindspore_ret_code(std::string_view msg) {
  for (std::string_view marker : {"ret[", "ret: "}) {
    for (size_t at = msg.find(marker); at != std::string_view::npos; at = msg.find(marker, at + 1)) {
      if (at > 0 && ((msg[at - 1] >= 'a' && msg[at - 1] <= 'z') || msg[at - 1] == '_')) continue;
      size_t k = at + marker.size();
      if (!digits(msg, k, 6) || (k + 6 < msg.size() && msg[k + 6] >= '0' && msg[k + 6] <= '9')) continue;
      return msg.substr(k, 6);
    }
  }
  return {};
}

// DeepSpeed's log_dist record: `[2025-07-03 08:57:56,267] [INFO] [logging.py:107:log_dist]
// [Rank 0] step=110, ...`: the rank.
std::optional<int> launcher_rank(std::string_view body) {
  while (!body.empty() && (body[0] == ' ' || body[0] == '\t')) body.remove_prefix(1);
  if (body.empty() || body[0] != '[' || !datetime_at(body, 1)) return std::nullopt;
  size_t at = body.find("] [Rank ");
  if (at == std::string_view::npos || at > 200) return std::nullopt;
  size_t k = at + 8, b = k;
  int v = 0;
  while (k < body.size() && k - b < 7 && body[k] >= '0' && body[k] <= '9') v = v * 10 + (body[k++] - '0');
  if (k == b || k >= body.size() || body[k] != ']') return std::nullopt;
  return v;
}

// uvicorn's access and lifecycle log: `INFO:     Started server process [16994]`.
bool uvicorn_record(std::string_view body) {
  for (std::string_view level : {"INFO:  ", "WARNING:  ", "ERROR:  ", "DEBUG:  ", "CRITICAL:  "})
    if (starts_with(body, level)) return true;
  return false;
}

// A tqdm progress bar: `Loading safetensors checkpoint shards:  50% Completed | 1/2 [00:00<00:00,
// 2.15it/s]`, `100%|####| 8/8 [00:01<00:00, 5.1it/s, est. speed input: ...]`: a percentage, a
// bar, then the bracket with the rate.
bool progress_bar(std::string_view body) {
  size_t pct = body.find("% ");
  if (pct == std::string_view::npos) pct = body.find("%|");
  if (pct == std::string_view::npos || pct == 0 || body[pct - 1] < '0' || body[pct - 1] > '9') return false;
  size_t rate = body.rfind(" [");
  if (body.find('|', pct) == std::string_view::npos || rate == std::string_view::npos ||
      rate < pct || !body.ends_with("]"))
    return false;
  std::string_view bracket = body.substr(rate);  // `[00:01<00:00, 3.69it/s, est. speed ...]`
  return bracket.find("it/s") != std::string_view::npos || bracket.find("s/it") != std::string_view::npos;
}

// A shell that could not find a command: `/bin/sh: 1: hccn_tool: not found`,
// `bash: npu-smi: command not found`, `sh: line 1: x: command not found`.
bool shell_not_found(std::string_view body) {
  if (!(starts_with(body, "/bin/sh: ") || starts_with(body, "/bin/bash: ") || starts_with(body, "sh: ") ||
        starts_with(body, "bash: ")))
    return false;
  return body.ends_with(": not found") || body.ends_with(": command not found");
}

// Python's warnings module: `/path/distributed_c10d.py:114: UserWarning: HCCL doesn't ...` and
// the source line it prints under it, `  warnings.warn("...")`.
bool python_warning(std::string_view body) {
  if (starts_with(body, "warnings.warn(")) return true;  // indentation already skipped
  size_t py = body.find(".py:");
  if (py == std::string_view::npos || py > 300) return false;
  size_t k = py + 4, b = k;
  while (k < body.size() && body[k] >= '0' && body[k] <= '9') ++k;
  if (k == b || body.substr(k, 2) != ": ") return false;
  size_t colon = body.find(": ", k + 2);
  return colon != std::string_view::npos && body.substr(k + 2, colon - k - 2).ends_with("Warning");
}

// TBE's compiler subprocesses: `[ERROR] TBE Subprocess[task_distribute] raise error[], ...`.
bool tbe_record(std::string_view body) {
  size_t close = body.find("] TBE ");
  return !body.empty() && body[0] == '[' && close != std::string_view::npos && close < 10;
}

// DeepSpeed's throughput timer: `steps: 110 loss: 1.9161 iter time (s): 0.580 samples/sec: 441.5`.
bool step_record(std::string_view body) {
  return starts_with(body, "steps: ") && digits(body, 7, 1) && body.find(" loss: ") != std::string_view::npos;
}

// MindSpore's error layout: a rule of dashes and `- Device load error message:` section heads.
// (Its C++ stack lines, `mindspore/core/utils/ms_context.cc:327 Func`, read as a grep prefix.)
bool mindspore_error_layout(std::string_view body) {
  if (body.size() >= 10 && body.find_first_not_of('-') == std::string_view::npos) return true;
  if (starts_with(body, "- ") && body.size() < 80 && body.find(':') != std::string_view::npos &&
      body[2] >= 'A' && body[2] <= 'Z')
    return body.back() == ':' || body.ends_with("(For framework developers)");
  return false;
}

}  // namespace

// A log record of another logger: DeepSpeed `[2022-09-08 12:02:16,517] [INFO] [f.py:1:g] ...`,
// Python logging `2025-03-26 11:48:53 - INFO - ...` / `2025-03-26 11:48:53,311 ...`, sglang
// `[2025-02-25 12:05:39 TP0] ...`, glog `I0101 12:00:00.000000 1 f.cc:1] ...`, a plog line.
LogRecord log_record(std::string_view body) {
  while (!body.empty() && (body[0] == ' ' || body[0] == '\t')) body.remove_prefix(1);
  if (datetime_at(body, 0)) return LogRecord::other;
  // vLLM's progress dots, alone on a line or after a worker prefix
  if (!body.empty() && body.find_first_not_of('.') == std::string_view::npos) return LogRecord::other;
  if (uvicorn_record(body) || progress_bar(body) || shell_not_found(body) || python_warning(body) || tbe_record(body) || step_record(body) ||
      mindspore_error_layout(body))
    return LogRecord::other;
  if (!body.empty() && body[0] == '[' && datetime_at(body, 1)) return LogRecord::other;
  for (std::string_view level : {"INFO [", "WARNING [", "ERROR [", "DEBUG ["})  // MindSpeed
    if (starts_with(body, level) && datetime_at(body, level.size())) return LogRecord::other;
  if (body.size() > 20 && (body[0] == 'I' || body[0] == 'W' || body[0] == 'E' || body[0] == 'F') &&
      digits(body, 1, 4) && body[5] == ' ' && digits(body, 6, 2) && body[8] == ':')
    return LogRecord::other;
  if (starts_with(body, "[") || body.find("[ERROR] ") != std::string_view::npos ||
      body.find("[INFO] ") != std::string_view::npos ||
      body.find("[WARNING] ") != std::string_view::npos ||
      body.find("[EVENT] ") != std::string_view::npos ||
      body.find("[DEBUG] ") != std::string_view::npos) {
    PlogLine pl;
    if (parse_plog_line(body, pl) == PlogResult::parsed) return LogRecord::plog;
  }
  return LogRecord::none;
}

// Plog lines printed to stdout (ASCEND_SLOG_PRINT_TO_STDOUT=1) keep their facts: they go to
// a plog reader of their own, whose statistics stay apart from the job output's.
void PythonLogParser::plog_line(const Line& l) {
  if (!plog_) {
    plog_ctx_ = std::make_unique<ParseContext>(ParseContext{ctx_.entry, ctx_.facts, plog_stats_, ctx_.options});
    plog_ = std::make_unique<PlogFileParser>(*plog_ctx_, knowledge_for(ctx_.options.knowledge_dir));
  }
  plog_->feed(l);
}

void PythonLogParser::banner_version(std::string_view body, const Line& l) {
  constexpr std::string_view kBanner = " LLM engine (v";
  size_t at = body.find(kBanner);
  if (at == std::string_view::npos || body.find("Initializing a ") > at) return;
  size_t b = at + kBanner.size(), e = b;
  while (e < body.size() && e - b < 48 && body[e] != ')' && body[e] != ' ') ++e;
  if (e == b || e >= body.size() || body[e] != ')' || body[b] < '0' || body[b] > '9') return;
  LibraryFacts& lf = ctx_.facts.libraries;
  for (const auto& row : lf.default_pip)
    if (row.normalized == "vllm") return;  // one version row per package: the first wins
  add_default_pip(lf, "vllm", body.substr(b, e - b), "banner", make_evidence(entry_, l.number, l.offset, l.text));
}

// One version row per package, the first wins (as the banner's): a `pip list` printed before
// the install keeps what was there. `pip-collecting`: the version pip fetched to install (a
// pinned requirement); `pip-installed`: what `Successfully installed` or `Requirement already
// satisfied` says is there.
void PythonLogParser::add_package(std::string_view name, std::string_view version, std::string_view kind) {
  LibraryFacts& lf = ctx_.facts.libraries;
  std::string normalized = pep503_normalize(name);
  for (const auto& row : lf.default_pip)
    if (row.normalized == normalized) return;
  add_default_pip(lf, name, version, kind, evidence(cur_->text));
}

bool PythonLogParser::pip_console(std::string_view body) {
  using pipconsole::PipLine;
  auto p = pipconsole::parse_pip_line(body);
  if (!p) return false;
  if (p->shape == PipLine::Shape::collecting && !p->version.empty()) add_package(p->name, p->version, "pip-collecting");
  if (p->shape == PipLine::Shape::satisfied && !p->version.empty()) add_package(p->name, p->version, "pip-installed");
  if (p->shape == PipLine::Shape::installed) {
    std::string_view list = p->installed, name, version;
    while (!list.empty()) {
      size_t sp = list.find(' ');
      std::string_view item = list.substr(0, sp);
      list = sp == std::string_view::npos ? std::string_view{} : list.substr(sp + 1);
      if (pipconsole::split_installed_item(item, name, version)) add_package(name, version, "pip-installed");
    }
  }
  return true;
}

JobRead PythonLogParser::job_line(StreamState& s, std::string_view body, bool unclaimed) {
  using namespace joblines;
  // Python's interactive prompt: the order of a visibility variable and torch_npu decides
  // whether the runtime saw the variable (correlator/visible_devices_late.cpp).
  if (auto in = repl::parse_repl_input(body)) {
    using What = repl::ReplInput::What;
    if (in->what != What::other) {
      JobEvent e;
      e.stream = s.index;
      e.kind = JobEventKind::repl_input;
      e.call = in->what == What::sets_visible_devices ? std::string(in->variable)
               : in->what == What::imports_npu        ? "import"
                                                       : "use";
      e.source = cap(in->code, kMaxText);
      add_job_event(std::move(e));
    }
    return JobRead::judged;
  }
  if (unclaimed && pip_console(body)) return JobRead::judged;
  if (is_c10_frame(body)) {
    if (s.last_c10) {
      JobEvent& e = py_.job_events[*s.last_c10];
      if (e.frames++ == 0) e.library = std::string(c10_frame_library(body));  // where it was raised
    }
    return JobRead::judged;
  }
  if (unclaimed && is_indented(body) && has_func_tag(body)) {  // report line, header cut away
    JobEvent e;
    e.stream = s.index;
    e.kind = JobEventKind::report_line;
    if (auto r = find_runtime_result(body)) e.code = std::to_string(*r);
    if (size_t at = body.find(" result = "); e.code.empty() && at != std::string_view::npos) {
      size_t k = at + 10, b = k;  // `build op model failed, result = 500002[FUNC:...]`
      while (k < body.size() && k - b < 12 && body[k] >= '0' && body[k] <= '9') ++k;
      e.code = std::string(body.substr(b, k - b));
    }
    e.device = device_named(body);
    e.call = cap(trim(split_func_tag(body).text), kMaxText);
    if (!e.code.empty() || e.device) add_job_event(std::move(e));
    return JobRead::judged;
  }
  if (auto m = parse_mindspore_line(body)) {
    // EXCEPTION: older MindSpore's level for a record that raises (`[EXCEPTION] DEVICE(...)`)
    if (m->level == "ERROR" || m->level == "WARNING" || m->level == "CRITICAL" || m->level == "EXCEPTION") {
      JobEvent e;
      e.stream = s.index;
      e.kind = JobEventKind::framework_log;
      e.time = std::string(m->time_text);
      e.component = std::string(m->module);
      // The code it names: the CANN report's, else the runtime result it quotes.
      auto report = mindspore_cann_report(m->message);
      e.code = std::string(report ? report->code : mindspore_ret_code(m->message));
      int64_t pid = 0;
      for (char c : m->pid) pid = pid * 10 + (c - '0');
      e.pid = pid;
      e.call = cap(m->message, kMaxText);
      add_job_event(std::move(e));
      // That report goes on over the next lines: they are its body, as after a header of its own.
      if (report) {
        close_block(s);
        open_report(s, *report, "mindspore");
      }
    }
    return JobRead::judged;
  }
  // A component's own log record (MindCluster's Go log; MindIE / ATB, levels in lower case):
  // its error records are job events, the rest carry no fact.
  auto component_record = [&](const HwlogLine& h, bool error) {
    if (!error) return true;
    JobEvent e;
    e.stream = s.index;
    e.kind = JobEventKind::component_error;
    e.time = std::string(h.time_text);
    e.call = cap(h.message, kMaxText);
    e.source = std::string(h.source);
    if (auto j = parse_job_line(h.message)) e.code = std::string(j->code);
    add_job_event(std::move(e));
    return true;
  };
  if (auto h = parse_hwlog_line(body)) {
    component_record(*h, h->level == "ERROR" || h->level == "CRITICAL");
    return JobRead::judged;
  }
  if (auto h = parse_mindie_line(body)) {
    component_record(*h, h->level == "error" || h->level == "critical" || h->level == "fatal");
    return JobRead::judged;
  }
  // An application's own logger (`20250102-03:04:05.678 Trainer ERROR: ...`): its error
  // records keep their time; the code is the message's (`error code is N`, `failed: N`).
  if (auto a = parse_app_log_line(body)) {
    if (!is_error_level(a->level)) return JobRead::judged;
    JobEvent e;
    e.stream = s.index;
    e.kind = JobEventKind::app_log;
    e.time = std::string(a->time_text);
    e.call = cap(a->message, kMaxText);
    if (auto j = parse_job_line(a->message); j && !j->code.empty()) e.code = std::string(j->code);
    else if (auto c = find_error_code_is(a->message)) e.code = std::to_string(*c);
    e.device = device_named(a->message);
    add_job_event(std::move(e));
    return JobRead::judged;
  }
  if (auto j = parse_job_line(body)) {
    JobEvent e;
    e.stream = s.index;
    e.kind = j->kind;
    e.code = std::string(j->code);
    e.device = j->device;
    e.library = std::string(j->library);
    e.symbol = std::string(j->symbol);
    e.call = cap(j->call, kMaxText);
    e.source = cap(j->source, kMaxText);
    e.loaded_by = std::string(j->loaded_by);
    e.tried = std::string(j->tried);
    e.capacity = std::string(j->capacity);
    e.allocated = std::string(j->allocated);
    e.free = std::string(j->free);
    e.reserved = std::string(j->reserved);
    if (auto i = add_job_event(std::move(e)); i && j->kind == JobEventKind::c10_raised_from)
      s.last_c10 = i;
    return JobRead::judged;
  }
  if (auto r = launcher_rank(body)) {
    if (r != s.last_launcher_rank) {  // once per rank change, not per line
      JobEvent e;
      e.stream = s.index;
      e.kind = JobEventKind::log_origin;
      e.rank = r;
      add_job_event(std::move(e));
      s.last_launcher_rank = r;
    }
    return JobRead::shape;
  }
  if (auto pid = glog_pid(body)) {
    if (pid != s.last_glog_pid) {
      JobEvent e;
      e.stream = s.index;
      e.kind = JobEventKind::log_origin;
      e.pid = pid;
      add_job_event(std::move(e));
      s.last_glog_pid = pid;
    }
    return JobRead::shape;
  }
  if (auto a = parse_acl_sample_line(body)) {
    if (a->device && a->device != s.last_acl_device) {  // once per device change, not per line
      JobEvent e;
      e.stream = s.index;
      e.kind = JobEventKind::acl_device;
      e.device = a->device;
      e.call = cap(a->message, kMaxText);
      add_job_event(std::move(e));
      s.last_acl_device = a->device;
    }
    return JobRead::shape;
  }
  // An application's error line naming ids as key=value (`device fault reported: device_id=4
  // stream_id=46 task_id=0`): the line's text keeps the stream and task ids (the facts
  // listing reads them there), the device is the event's.
  if (unclaimed)
    if (auto v = parse_id_values(body)) {
      JobEvent e;
      e.stream = s.index;
      e.kind = JobEventKind::id_values;
      e.device = v->device;
      e.call = cap(trim(body), kMaxText);
      add_job_event(std::move(e));
      return JobRead::judged;
    }
  return JobRead::none;
}

bool PythonLogParser::level_line(StreamState& s, const Prefix& p) {
  LevelHit hit;
  if (!levels_.find(p.logger, p.body, hit)) return text_line(s, p);
  if (hit.blank) return true;  // a level and nothing after it (a blank logger line)
  // Storm bound (issue 35): past kPlogKeptPerTemplate kept lines of one template (form and
  // text with digits left out) and prefix pid in a stream, a line is counted on the last kept
  // one: a hash and a count, no allocation.
  uint64_t key = mix64(mix64(hit.key, static_cast<uint64_t>(p.pid.value_or(-1))), s.index);
  if (auto it = level_templates_.find(key); it != level_templates_.end() &&
                                            it->second.kept >= kPlogKeptPerTemplate &&
                                            it->second.last < py_.job_events.size()) {
    ++py_.job_events[it->second.last].repeats;
    return true;
  }
  LevelLine lv;
  if (!levels_.read(hit, p.body, lv)) return false;
  if (lv.message.empty()) return true;
  JobEvent e;
  e.stream = s.index;
  e.kind = JobEventKind::level_line;
  e.component = std::string(lv.module);
  e.form = lv.form->name;
  e.source = cap(lv.where, kMaxText);
  e.time = std::string(lv.time);
  e.pid = lv.pid;
  e.call = cap(lv.message, kMaxText);
  e.code = levels_.code(lv.message);
  e.device = joblines::device_named(lv.message);
  if (auto i = add_job_event(std::move(e))) {
    LevelSlot& slot = level_templates_[key];
    ++slot.kept;
    slot.last = *i;
  }
  return true;
}

std::optional<size_t> PythonLogParser::add_job_event(JobEvent e) {
  if (!room(n_job_, kMaxJobEvents)) return std::nullopt;
  e.evidence = evidence(cur_->text);
  py_.job_events.push_back(std::move(e));
  return py_.job_events.size() - 1;
}

}  // namespace triage::pyparse
