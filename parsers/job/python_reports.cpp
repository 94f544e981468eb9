// CANN error-report blocks, torch_npu ERR lines and errors, and warnings.
#include "parsers/job/python_parser_state.h"

namespace triage::pyparse {

std::optional<LineClass> PythonLogParser::block_line(StreamState& s, std::string_view body) {
  ErrorReportBlock& b = py_.error_reports[*s.open_block];
  if (is_report_traceback(body)) {
    s.block_frames = true;
    return LineClass::parsed;
  }
  if (auto h = parse_report_header(body)) {
    // `EZ9999: Inner Error!` is followed by the timed header of the same record
    if (!h->inner_error && h->code == b.code && !b.has_time && !b.pid &&
        b.style == ReportHeaderStyle::code_only && b.inner_error_line) {
      fill_report(b, *h);
      b.evidence_header = evidence(cur_->text);
      on_report(s, *s.open_block);
      return h->time_malformed ? LineClass::malformed : LineClass::parsed;
    }
    close_block(s);
    return std::nullopt;
  }
  if ((is_indented(body) && !is_blank(body)) || has_func_tag(body) || is_hccl_message_line(body)) {
    report_body_line(s, b, body);
    // the c10 warning that carried the block ends with `(function x)` after its last line
    if (std::string_view fn = function_tail(body); !fn.empty()) {
      if (s.open_warning) py_.warnings[*s.open_warning].function = std::string(fn);
      s.open_warning.reset();
      close_block(s);
    }
    return LineClass::parsed;
  }
  close_block(s);
  return std::nullopt;
}

void PythonLogParser::report_body_line(StreamState& s, ErrorReportBlock& b,
                                       std::string_view body) {
  FuncTag tag = split_func_tag(body);
  if (!b.runtime_result) b.runtime_result = find_runtime_result(tag.text);
  if (auto t = find_torch_error(tag.text)) add_torch_error(s, *t, std::nullopt);
  if (!within_budget(body.size() + 64)) {
    ++b.lines_omitted;
    return;
  }
  if (!s.block_frames) {
    if (b.details.size() < ErrorReportBlock::kMaxDetails)
      b.details.push_back(cap(trim(body), kMaxText));
    else
      ++b.lines_omitted;
    return;
  }
  if (b.frames.size() >= ErrorReportBlock::kMaxFrames) {
    ++b.lines_omitted;
    return;
  }
  ReportFrame& f = b.frames.emplace_back();
  f.text = cap(tag.text, kMaxText);
  f.func = cap(tag.func, kMaxText);
  f.file = cap(tag.file, kMaxText);
  f.line = tag.line;
}

void PythonLogParser::fill_report(ErrorReportBlock& b, const ReportHeader& h) {
  b.style = h.style;
  b.code_name = std::string(h.code_name);
  b.pid = h.pid;
  b.has_time = h.has_time;
  if (h.has_time) {
    b.local = h.local;
    b.time.original = std::string(h.time_text);
  }
  FuncTag tag = split_func_tag(h.message);
  b.message = cap(tag.text, PythonTraceback::kMaxMessage);
  if (tag.present) {
    b.message_location.func = std::string(tag.func);
    b.message_location.file = std::string(tag.file);
    b.message_location.line = tag.line;
  }
  if (!b.runtime_result) b.runtime_result = find_runtime_result(h.message);
}

std::optional<size_t> PythonLogParser::open_report(StreamState& s, const ReportHeader& h,
                                                   std::string_view carrier) {
  if (!room(n_reports_, kMaxReports)) return std::nullopt;
  size_t i = py_.error_reports.size();
  ErrorReportBlock& b = py_.error_reports.emplace_back();
  b.stream = s.index;
  b.code = std::string(h.code);
  b.carrier = std::string(carrier);
  b.inner_error_line = h.inner_error;
  fill_report(b, h);
  if (h.inner_error) b.message.clear();  // "Inner Error!" is the opener, not the message
  b.evidence = evidence(cur_->text);
  if (h.has_time) b.evidence_header = b.evidence;
  if (auto t = find_torch_error(h.message)) add_torch_error(s, *t, std::nullopt);
  s.open_block = i;
  s.block_frames = false;
  on_report(s, i);
  return i;
}

std::optional<size_t> PythonLogParser::add_err_line(StreamState& s, const ErrLineParts& e) {
  if (!room(n_err_, kMaxErrLines)) return std::nullopt;
  ErrLine& x = py_.err_lines.emplace_back();
  x.stream = s.index;
  x.local = e.local;
  x.time.original = std::string(e.time_text);
  x.pid = e.pid;
  x.device = e.device;
  x.rank = e.rank;
  x.code = std::string(e.code);
  x.submodule = std::string(e.submodule);
  x.text = cap(e.text, kMaxText);
  x.evidence = evidence(cur_->text);
  return py_.err_lines.size() - 1;
}

std::optional<size_t> PythonLogParser::add_torch_error(StreamState& s, const TorchErrorParts& t,
                                                       std::optional<size_t> traceback) {
  if (!room(n_torch_, kMaxTorchErrors)) return std::nullopt;
  TorchNpuError& x = py_.torch_errors.emplace_back();
  x.stream = s.index;
  x.kind = t.kind;
  x.cpp_function = cap(t.cpp_function, kMaxText);
  x.cpp_file = cap(t.cpp_file, kMaxText);
  x.cpp_line = t.cpp_line;
  x.call = cap(t.call, kMaxText);
  x.error_code = t.error_code;
  x.reason = cap(t.reason, kMaxText);
  x.traceback = traceback;
  x.evidence = evidence(cur_->text);
  return py_.torch_errors.size() - 1;
}

std::optional<size_t> PythonLogParser::add_warning(StreamState& s, TorchWarning w) {
  if (!room(n_warnings_, kMaxWarnings)) return std::nullopt;
  w.stream = s.index;
  py_.warnings.push_back(std::move(w));
  return py_.warnings.size() - 1;
}

void PythonLogParser::on_err(StreamState& s, size_t index) {
  s.last_err = index;
  s.last_err_seq = s.seq;
  if (s.awaiting && !cand(*s.awaiting).err_after) cand(*s.awaiting).err_after = index;
}

void PythonLogParser::on_report(StreamState& s, size_t index) {
  s.last_report = index;
  s.last_report_seq = s.seq;
  if (s.awaiting && !cand(*s.awaiting).report_after) cand(*s.awaiting).report_after = index;
}


}  // namespace triage::pyparse
