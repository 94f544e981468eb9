// Python tracebacks: frames, exception lines, chains, and their time anchors.
#include "parsers/job/python_parser_state.h"

namespace triage::pyparse {

std::optional<LineClass> PythonLogParser::traceback_line(StreamState& s, std::string_view body,
                                                         bool& touched_tb) {
  if (auto f = parse_frame(body)) {
    add_frame(s, *f);
    touched_tb = true;
    return LineClass::parsed;
  }
  if (looks_like_frame(body)) {  // `  File "/usr/lib/pyth` cut mid-frame
    touched_tb = true;
    return LineClass::malformed;
  }
  const size_t lead = leading_spaces(body);
  if (!is_blank(body) && lead == s.indent && !is_traceback_header(body))
    if (auto e = parse_exception_line(body.substr(lead))) {
      complete_traceback(s, *e);
      return LineClass::parsed;
    }
  // A paste whose indentation was collapsed (every line one blank in): after the frame's
  // source line, a line naming an exception type (`RuntimeError: ...`) is the exception, not
  // a second source line (issue 36).
  if (!is_blank(body) && lead > s.indent && s.frame_has_source)
    if (auto e = parse_exception_line(body.substr(lead)); e && is_exception_type_name(e->type)) {
      complete_traceback(s, *e);
      return LineClass::parsed;
    }
  if (!is_blank(body) && lead > s.indent) {
    // the frame's source line, or a caret line / `[Previous line repeated N more times]`
    PythonTraceback* t = tb(s.open_tb);
    if (t && !s.frame_has_source && !t->frames.empty() && within_budget(trim(body).size()))
      t->frames.back().source = cap(trim(body), kMaxText);
    s.frame_has_source = true;
    touched_tb = true;
    return LineClass::parsed;
  }
  truncate_open(s);  // anything else cuts the traceback off; the line is read afresh
  return std::nullopt;
}

void PythonLogParser::start_traceback(StreamState& s, bool header, std::string_view body) {
  if (s.tb == StreamState::Tb::frames) truncate_open(s);
  const bool chained = s.tb == StreamState::Tb::separator;
  if (!chained) close_chain(s);
  s.tb = StreamState::Tb::frames;
  s.indent = header ? leading_spaces(body) : 0;
  s.frame_has_source = true;
  s.awaiting.reset();
  s.open_tb.reset();
  if (!room(n_tracebacks_, kMaxTracebacks)) return;

  size_t i = py_.tracebacks.size();
  PythonTraceback& t = py_.tracebacks.emplace_back();
  cand_.emplace_back();
  t.stream = s.index;
  t.header_seen = header;
  t.evidence_start = evidence(cur_->text);
  if (chained && !s.chain.empty()) {
    PythonTraceback& before = py_.tracebacks[s.chain.back()];
    before.last_in_chain = false;
    t.chain = before.chain;
    t.chain_position = before.chain_position + 1;
  } else {
    t.chain = py_.chains++;
  }
  if (chained) t.link = s.pending_link;
  if (t.chain_position == 0) {  // chained ones share the chain's anchor instead
    Candidates& c = cand(i);
    if (s.last_err && s.seq - s.last_err_seq <= kAnchorWindow) c.err_before = s.last_err;
    if (s.last_report && s.seq - s.last_report_seq <= kAnchorWindow)
      c.report_before = s.last_report;
  }
  s.chain.push_back(i);
  s.open_tb = i;
  s.pending_link = PyChainLink::none;
}

void PythonLogParser::add_frame(StreamState& s, const FrameLine& f) {
  s.frame_has_source = false;
  PythonTraceback* t = tb(s.open_tb);
  if (!t) return;
  if (t->frames.size() >= PythonTraceback::kMaxFrames) {  // keep the outermost and innermost
    t->frames.erase(t->frames.begin() + PythonTraceback::kMaxFrames / 2);
    ++t->frames_omitted;
  }
  if (!within_budget(256 + f.file.size() + f.function.size() + cur_->text.size() / 4)) {
    // out of room: the innermost frame still replaces the last one kept
    if (t->frames.empty()) return;
    t->frames.pop_back();
    ++t->frames_omitted;
  }
  PyFrame& fr = t->frames.emplace_back();
  fr.file = cap(f.file, kMaxText);
  fr.line = f.line;
  fr.function = cap(f.function, kMaxText);
  fr.evidence = evidence(cur_->text);
  t->evidence_innermost = fr.evidence;
}

void PythonLogParser::complete_traceback(StreamState& s, const ExceptionLine& e) {
  s.tb = StreamState::Tb::after_exception;
  s.exception_seq = s.seq;
  std::optional<size_t> i = s.open_tb;
  s.open_tb.reset();
  s.awaiting = i;
  PythonTraceback* t = tb(i);
  if (!t) return;
  t->complete = true;
  t->exception_type = cap(e.type, kMaxText);
  t->message = cap(e.message, PythonTraceback::kMaxMessage);
  t->evidence_exception = evidence(cur_->text);
  if (auto te = find_torch_error(e.message)) {
    t->torch_error = add_torch_error(s, *te, i);
    t->error_code = te->error_code;
  }
  if (!t->error_code) t->error_code = find_error_code_is(e.message);
  std::string_view ecode = find_ecode(e.message);
  t->ecode = std::string(ecode);
  // 1.11-era torch_npu flattens the whole error report into the message
  if (!ecode.empty()) {
    size_t at = e.message.find(ecode);
    std::string_view from = e.message.substr(at);
    if (from.substr(ecode.size(), 13) == ": Inner Error") {
      ReportHeader h;
      h.style = ReportHeaderStyle::inline_text;
      h.code = ecode;
      h.message = from.substr(ecode.size() + 2);
      if (auto bi = open_report(s, h, "exception")) t->error_report = bi;
    }
  }
}

void PythonLogParser::truncate_open(StreamState& s) {
  if (PythonTraceback* t = tb(s.open_tb)) t->truncated = true;
  if (s.open_tb_last == LineClass::parsed && ctx_.stats.parsed > 0) {
    // the line where the traceback stops counts as damaged: it was cut off after it
    --ctx_.stats.parsed;
    ctx_.stats.note_malformed(entry_, s.open_tb_last_line, s.open_tb_last_offset,
                              "(traceback cut off after this line: no exception line)");
  }
  s.open_tb.reset();
  s.tb = StreamState::Tb::idle;
  s.open_tb_last = LineClass::malformed;  // counted once
  close_chain(s);
}

void PythonLogParser::decide_anchor(size_t i) {
  PythonTraceback& t = py_.tracebacks[i];
  const Candidates& c = cand(i);
  t.err_line = c.err_after ? c.err_after : c.err_before;
  t.error_report = t.error_report ? t.error_report : c.report_after ? c.report_after
                                                                    : c.report_before;
  auto from_err = [&](size_t e, bool after) {
    const ErrLine& x = py_.err_lines[e];
    t.anchor.kind = PyAnchorKind::err_line;
    t.anchor.after_exception = after;
    t.anchor.pid = x.pid;
    t.anchor.device = x.device;
    t.anchor.rank = x.rank;
    t.anchor.local = x.local;
    t.anchor.time.original = x.time.original;
    t.anchor.evidence = x.evidence;
  };
  auto from_report = [&](std::optional<size_t> r, bool after) {
    if (!r || !py_.error_reports[*r].has_time) return false;
    const ErrorReportBlock& b = py_.error_reports[*r];
    t.anchor.kind = PyAnchorKind::error_report;
    t.anchor.after_exception = after;
    t.anchor.pid = b.pid;
    t.anchor.local = b.local;
    t.anchor.time.original = b.time.original;
    t.anchor.evidence = b.evidence_header;
    return true;
  };
  if (c.err_after) from_err(*c.err_after, true);
  else if (from_report(c.report_after, true)) {}
  else if (c.err_before) from_err(*c.err_before, false);
  else from_report(c.report_before, false);

  if (t.error_report) {
    const ErrorReportBlock& b = py_.error_reports[*t.error_report];
    if (t.ecode.empty()) t.ecode = b.code;
    if (!t.error_code) t.error_code = b.runtime_result;
  }
}

void PythonLogParser::close_chain(StreamState& s) {
  for (size_t i : s.chain) decide_anchor(i);
  const PyTimeAnchor* shared = nullptr;
  for (size_t i : s.chain)
    if (py_.tracebacks[i].anchor.kind != PyAnchorKind::none) {
      shared = &py_.tracebacks[i].anchor;
      break;
    }
  if (shared)
    for (size_t i : s.chain)
      if (py_.tracebacks[i].anchor.kind == PyAnchorKind::none) {
        py_.tracebacks[i].anchor = *shared;
        py_.tracebacks[i].anchor.from_chain = true;
      }
  s.chain.clear();
  s.awaiting.reset();
  if (s.tb != StreamState::Tb::frames) s.tb = StreamState::Tb::idle;
}


}  // namespace triage::pyparse
