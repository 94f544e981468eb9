// Assembles Python job output into facts. Lines are split by wrapper prefix into streams
// (`[rank1]:`, `(Worker pid=7)`), and each stream runs its own small state machine, so two
// ranks' interleaved tracebacks stay apart. Per line nothing is allocated except the facts kept.
// This file: streams and the dispatch of one line to the structure it belongs to.
#include <algorithm>
#include <cstring>

#include "knowledge/component_phrases.h"
#include "parsers/common/log_text.h"
#include "parsers/job/python_parser.h"
#include "parsers/common/entry_fact_scan.h"
#include "parsers/job/python_parser_state.h"

namespace triage {
namespace pyparse {

bool PythonLogParser::continues_block(std::string_view body) const {
  if (is_indented(body) && !is_blank(body)) return true;
  if (is_report_traceback(body) || has_func_tag(body) || !function_tail(body).empty()) return true;
  if (parse_error_text(body)) return true;
  auto h = parse_report_header(body);
  return h && !h->inner_error;
}

StreamState& PythonLogParser::stream_for(const Prefix& p) {
  // grep -rn over several files: each file's lines are streams of their own.
  std::string_view key = p.label;
  if (!p.grep_file.empty()) {
    key_buf_.assign(p.grep_file);
    if (!p.label.empty()) key_buf_.append(" ").append(p.label);
    key = key_buf_;
  }
  if (key.empty() && prev_ && !py_.streams[prev_->index].label.empty() &&
      (prev_->open_block || prev_->open_warning) && continues_block(p.body))
    return *prev_;
  auto it = streams_.find(key);
  if (it != streams_.end()) return it->second;
  if (streams_.size() >= kMaxStreams) {
    key = {};
    it = streams_.find(key);
    if (it != streams_.end()) return it->second;
  }
  StreamState& s = streams_.emplace(std::string(key), StreamState{}).first->second;
  s.index = py_.streams.size();
  PyStream& ps = py_.streams.emplace_back();
  ps.entry = entry_;
  ps.label = std::string(key);
  if (!key.empty()) {
    ps.rank = p.rank;
    ps.process_name = std::string(p.process_name);
    ps.pid = p.pid;
  }
  return s;
}

void PythonLogParser::line(const Line& l) {
  cur_ = &l;
  ParseStats& st = ctx_.stats;
  ++st.lines;
  if (st.lines == 1)
    if (auto reason = tool_error(l.text)) tool_error_ = std::string(*reason);
  if (std::memchr(l.text.data(), '\0', l.text.size())) {
    st.note_malformed(entry_, l.number, l.offset, l.text);  // binary garbage: not read further
    return;
  }
  Prefix p = split_prefix(l.text, &ansi_scratch_);
  StreamState& s = stream_for(p);
  ++s.seq;
  expire(s);
  bool touched_tb = false;
  LineClass c = classify(s, p.body, touched_tb);
  // A line inside a CANN error report belongs to the process the report names (`EZ9999[PID: n]`),
  // not to the wrapper that relayed it (`(EngineCore_DP0 pid=m)`).
  std::optional<int64_t> line_pid = p.pid;
  if (s.open_block && *s.open_block < py_.error_reports.size() && py_.error_reports[*s.open_block].pid)
    line_pid = py_.error_reports[*s.open_block].pid;
  const size_t hits_before = ctx_.facts.logs.signature_hits.size();
  bool known = signatures_.offer(p.body, entry_, l.number, l.offset, l.text, line_pid, ctx_.facts.logs);
  if (known) handled_errors(s, hits_before);
  line_time(s, p, hits_before);
  // Shape counts: a structure's line, a job-output failure line (also inside an exception
  // line: `ImportError: x.so: undefined symbol: f`), a line a job signature knows (glibc's
  // `malloc_consolidate(): invalid chunk size`), another logger's record, a blank line.
  bool shape = c == LineClass::parsed;
  const bool structure = c == LineClass::parsed;  // a traceback, report, ERR line, c10 record...
  JobRead read = job_line(s, p.body, c == LineClass::unrecognised);
  LogRecord r = LogRecord::none;
  if (read != JobRead::none) {
    shape = true;
    if (c == LineClass::unrecognised) c = LineClass::parsed;
  } else if (c == LineClass::unrecognised) {
    r = log_record(p.body);
    if (r == LogRecord::plog) plog_line(l);
    banner_version(p.body, l);
    shape = known || r != LogRecord::none || p.logger_prefix || is_blank(p.body);
  }
  // An error level is never silent (issue 36): a line that no reader above judged (no
  // structure, fact, signature or plog line took it) and that starts with an error level of
  // knowledge/error-levels.tsv is kept as an error-level line of unknown shape. vLLM's logger
  // repeats its prefix on every line of a multi-line record (a traceback, a CANN report
  // whose block was cut): a line whose prefix is the previous line's continues that record,
  // which its first non-blank line already stands for (kept, or judged by a reader).
  const uint64_t logger_key = p.logger.empty() ? 0 : fnv1a(p.logger);
  const bool continues = logger_key != 0 && logger_key == s.logger_key && s.record_text;
  if (logger_key != s.logger_key) {
    s.logger_key = logger_key;
    s.record_text = false;
  }
  if (!structure && read != JobRead::judged && !known && r != LogRecord::plog && c != LineClass::malformed) {
    if (continues && p.logger_prefix) {
      shape = true;  // its level is the record's
    } else if (level_line(s, p)) {
      shape = true;
      if (c == LineClass::unrecognised) c = LineClass::parsed;
    }
  }
  if (!is_blank(p.body)) s.record_text = true;
  if (l.overlong) {
    c = LineClass::malformed;
    st.note_malformed(entry_, l.number, l.offset, l.text);
  } else if (c == LineClass::malformed) {
    st.note_malformed(entry_, l.number, l.offset, l.text);
  } else if (c == LineClass::parsed) {
    ++st.parsed;
  } else {
    ++st.unrecognised;
  }
  if (c != LineClass::malformed) ++(shape ? st.lines_recognised : st.lines_unrecognised);
  if (touched_tb) {
    s.open_tb_last = c;
    s.open_tb_last_line = l.number;
    s.open_tb_last_offset = l.offset;
  }
  prev_ = &s;
}

void PythonLogParser::line_time(StreamState& s, const Prefix& p, size_t from) {
  std::optional<joblines::LineTime> t = joblines::read_line_time(p.body);
  if (!t && !p.logger.empty()) t = joblines::read_logger_time(p.logger);
  StreamState::Stamp& st = s.stamp;
  if (t) {
    note_span(*t);
    st.local = t->local;
    if (t->has_year()) {
      last_dated_ = t->local;
    } else if (last_dated_) {  // the year of the entry's last full date, across a new year too
      st.local.year = last_dated_->year;
      if (st.local.month - last_dated_->month > 6) --st.local.year;
      if (last_dated_->month - st.local.month > 6) ++st.local.year;
      if (st.local.month == 2 && st.local.day == 29 && !is_leap_year(st.local.year)) st.local.year = 0;
    }
    st.size = static_cast<uint8_t>(std::min(t->text.size(), sizeof st.text));
    std::memcpy(st.text, t->text.data(), st.size);
    st.seq = s.seq;
    st.set = true;
  } else if (joblines::has_own_date(p.body)) {
    st.set = false;  // a record with a time of its own (a CANN plog line): later lines are its
    return;
  }
  if (!st.set || s.seq - st.seq > kStampCarryLines) return;
  auto& hits = ctx_.facts.logs.signature_hits;
  for (size_t i = from; i < hits.size(); ++i) {
    SignatureHit& h = hits[i];
    if (h.time.valid) continue;
    h.time.civil = st.local;
    h.time.valid = true;
    h.time.time.original.assign(st.view());
  }
}

void PythonLogParser::note_span(const joblines::LineTime& t) {
  if (stamped_++ == 0) {
    span_first_.assign(t.text);
    span_first_at_ = evidence(cur_->text);
  }
  span_last_size_ = static_cast<uint8_t>(std::min(t.text.size(), sizeof span_last_));
  std::memcpy(span_last_, t.text.data(), span_last_size_);  // no allocation per line
  span_last_line_ = cur_->number;
  span_last_offset_ = cur_->offset;
}

void PythonLogParser::expire(StreamState& s) {
  if ((s.tb == StreamState::Tb::after_exception && s.seq - s.exception_seq > kAnchorWindow) ||
      (s.tb == StreamState::Tb::separator && s.seq - s.separator_seq > kAnchorWindow))
    close_chain(s);
  if (s.open_warning && s.seq - s.warning_seq > kAnchorWindow) s.open_warning.reset();
}

// The traceback being assembled; nullopt when the line is not part of it.
LineClass PythonLogParser::classify(StreamState& s, std::string_view body, bool& touched_tb) {
  const auto cont = s.cont;
  s.cont = StreamState::Cont::none;
  const bool blank_before = s.blank_pending;
  s.blank_pending = false;

  if (s.tb == StreamState::Tb::frames)
    if (auto c = traceback_line(s, body, touched_tb)) return *c;

  if (auto link = chain_separator(body); link != PyChainLink::none) {
    if (blank_before && ctx_.stats.unrecognised > 0) {  // the blank line Python printed before it
      --ctx_.stats.unrecognised;
      ++ctx_.stats.parsed;
    }
    close_block(s);
    s.tb = StreamState::Tb::separator;
    s.pending_link = link;
    s.separator_seq = s.seq;
    s.awaiting.reset();
    return LineClass::parsed;
  }
  if (is_traceback_header(body)) {
    close_block(s);
    start_traceback(s, true, body);
    touched_tb = true;
    return LineClass::parsed;
  }
  if (auto f = parse_frame(body)) {  // a traceback whose header was cut away
    close_block(s);
    start_traceback(s, false, body);
    add_frame(s, *f);
    touched_tb = true;
    return LineClass::parsed;
  }
  if (is_blank(body)) {
    close_block(s);
    if (s.tb == StreamState::Tb::separator) return LineClass::parsed;
    s.blank_pending = true;
    return LineClass::unrecognised;
  }
  if (looks_like_frame(body)) return LineClass::malformed;

  if (std::string_view fn = function_tail(body); !fn.empty() && trim(body).substr(0, 10) == "(function ") {
    close_block(s);
    if (s.open_warning) {
      py_.warnings[*s.open_warning].function = std::string(fn);
      s.open_warning.reset();
    }
    return LineClass::parsed;
  }
  // torch_npu's report line ends any open block: its strict form (time, PID, Device, RankID,
  // ERRnnnnn) is no traceback or warning line, even indented like one in a paste.
  if (auto e = parse_err_line(body)) {
    close_block(s);
    if (auto i = add_err_line(s, *e)) on_err(s, *i);
    s.cont = StreamState::Cont::after_err;
    return LineClass::parsed;
  }
  if (s.open_block)
    if (auto c = block_line(s, body)) return *c;

  if (auto text = parse_error_text(body)) {
    if (cont == StreamState::Cont::after_err && s.last_err)
      py_.err_lines[*s.last_err].error_text = cap(*text, kMaxText);
    s.cont = StreamState::Cont::error_text;
    return LineClass::parsed;
  }
  if (cont == StreamState::Cont::error_text && is_indented(body)) {  // "Rectify the fault ..."
    s.cont = StreamState::Cont::error_text;
    return LineClass::parsed;
  }
  if (auto c = parse_c10_line(body)) {
    close_block(s);
    TorchWarning w;
    w.level = c->level;
    w.has_time = c->has_time;
    w.month = c->month;
    w.day = c->day;
    w.hour = c->hour;
    w.minute = c->minute;
    w.second = c->second;
    w.micros = c->micros;
    w.time.original = std::string(c->time_text);
    w.source_file = std::string(c->file);
    w.source_line = c->line;
    w.message = cap(c->message, PythonTraceback::kMaxMessage);
    w.error_code = find_error_code_is(c->message);
    w.function = std::string(function_tail(c->message));
    w.evidence = evidence(cur_->text);
    auto wi = add_warning(s, std::move(w));
    if (wi && py_.warnings[*wi].function.empty()) {
      s.open_warning = wi;
      s.warning_seq = s.seq;
    }
    if (auto h = parse_report_header(c->message)) {  // `Warning: EZ9999: Inner Error!`
      auto bi = open_report(s, *h, "warning");
      if (wi && bi) py_.warnings[*wi].error_report = bi;
    }
    return LineClass::parsed;
  }
  if (auto h = parse_report_header(body)) {
    close_block(s);
    open_report(s, *h, h->carrier);
    return h->time_malformed ? LineClass::malformed : LineClass::parsed;
  }
  if (auto w = parse_python_warning(body)) {
    TorchWarning tw;
    tw.python_warning = true;
    tw.category = std::string(w->category);
    tw.source_file = std::string(w->file);
    tw.source_line = w->line;
    tw.message = cap(w->message, PythonTraceback::kMaxMessage);
    tw.evidence = evidence(cur_->text);
    add_warning(s, std::move(tw));
    s.cont = StreamState::Cont::warning_source;
    return LineClass::parsed;
  }
  if (cont == StreamState::Cont::warning_source && is_indented(body)) return LineClass::parsed;

  if (!is_indented(body))
    if (auto e = parse_exception_line(body))
      if (s.tb == StreamState::Tb::separator || is_exception_type_name(e->type)) {
        close_block(s);
        start_traceback(s, false, body);
        complete_traceback(s, *e);
        return LineClass::parsed;
      }
  if (auto t = find_torch_error(body)) {
    add_torch_error(s, *t, std::nullopt);
    return LineClass::parsed;
  }
  return LineClass::unrecognised;
}

// A line while an error-report block is open; nullopt when the block ends before it.
void PythonLogParser::finish() {
  for (auto& [key, s] : streams_) {
    if (s.tb == StreamState::Tb::frames) truncate_open(s);  // cut off at the end of the file
    close_chain(s);
  }
  ParseStats& st = ctx_.stats;
  if (!tool_error_.empty() && st.lines <= 3 && st.parsed == 0) st.not_collected = tool_error_;
  if (plog_) plog_->finish();
  name_report_components();
  if (stamped_) {
    JobSpan& span = py_.spans.emplace_back();
    span.first = std::move(span_first_);
    span.first_at = std::move(span_first_at_);
    span.last.assign(span_last_, span_last_size_);
    span.last_at.entry = entry_;
    span.last_at.line = span_last_line_;
    span.last_at.offset = span_last_offset_;
    span.stamped = stamped_;
  }
}

// A report printed to job output carries no module tag: the component is the one its text
// names (knowledge/component-phrases.tsv), looked for once per report, not per line.
void PythonLogParser::name_report_components() {
  const ComponentPhrases& phrases = component_phrases_for(ctx_.options.knowledge_dir);
  if (phrases.rows.empty()) return;
  for (size_t i = report_base_; i < py_.error_reports.size(); ++i) {
    ErrorReportBlock& b = py_.error_reports[i];
    std::string_view c = phrases.find(b.message);
    for (size_t k = 0; c.empty() && k < b.details.size(); ++k) c = phrases.find(b.details[k]);
    for (size_t k = 0; c.empty() && k < b.frames.size(); ++k) c = phrases.find(b.frames[k].text);
    b.component = std::string(c);
  }
}


}  // namespace pyparse

void parse_python_log(ParseContext& ctx, ByteSource& src) {
  ctx.stats.variant = "python";
  pyparse::PythonLogParser parser(ctx);
  LineReader reader(src, ctx.options.limits.max_line_bytes);
  Line l;
  // Issue 36: every line's codes, pids and ids, whatever the readers make of the line.
  EntryFactScan facts(ctx.entry.display.empty() ? ctx.entry.path : ctx.entry.display);
  while (reader.next(l)) {
    parser.line(l);
    facts.line(l.text, l.number, l.offset);
  }
  parser.finish();
  ctx.stats.bytes = reader.bytes_read();
}

}  // namespace triage
