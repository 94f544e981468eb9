// Assembles Python job output into facts. Lines are split by wrapper prefix into streams
// (`[rank1]:`, `(Worker pid=7)`), and each stream runs its own small state machine, so two
// ranks' interleaved tracebacks stay apart. Per line nothing is allocated except the facts kept.
#include <cstring>
#include <map>
#include <string>

#include "bundle/line_reader.h"
#include "parsers/python_lines.h"
#include "parsers/python_parser.h"

namespace triage {
namespace {

using namespace pylines;

// Stream lines between an exception line and the ERR / E-code line that anchors it, and
// between an anchor candidate and a traceback that starts after it.
constexpr uint64_t kAnchorWindow = 64;
constexpr size_t kMaxStreams = 1024;          // per entry; further prefixes share the "" stream
// Per entry: how many facts of each table are kept (a flood of warnings cannot crowd out the
// tracebacks), and how many bytes of frames, source lines and report lines.
constexpr size_t kMaxTracebacks = 20000, kMaxReports = 20000, kMaxWarnings = 20000;
constexpr size_t kMaxTorchErrors = 50000, kMaxErrLines = 50000;
constexpr size_t kMaxKeptBytes = size_t{64} << 20;
constexpr size_t kMaxText = 512;              // kept source lines, details, frames

enum class LineClass { parsed, unrecognised, malformed };

std::string cap(std::string_view s, size_t n) { return std::string(s.substr(0, n)); }

size_t leading_spaces(std::string_view s) {
  size_t k = 0;
  while (k < s.size() && (s[k] == ' ' || s[k] == '\t')) ++k;
  return k;
}

// Anchor candidates of one traceback, collected while the stream is read.
struct Candidates {
  std::optional<size_t> err_after, report_after, err_before, report_before;
};

struct StreamState {
  size_t index = 0;  // into PythonFacts::streams
  uint64_t seq = 0;  // lines of this stream so far

  enum class Tb { idle, frames, after_exception, separator } tb = Tb::idle;
  std::optional<size_t> open_tb;     // traceback being assembled (frames state)
  size_t indent = 0;                 // indentation of its header
  bool frame_has_source = true;      // the last frame already has its source line
  LineClass open_tb_last = LineClass::parsed;  // how the traceback's last line was counted
  uint64_t open_tb_last_line = 0, open_tb_last_offset = 0;
  PyChainLink pending_link = PyChainLink::none;
  std::vector<size_t> chain;         // tracebacks of the chain being assembled
  std::optional<size_t> awaiting;    // last completed traceback, open for anchors after it
  uint64_t exception_seq = 0, separator_seq = 0;

  std::optional<size_t> last_err, last_report;  // most recent anchor candidates
  uint64_t last_err_seq = 0, last_report_seq = 0;

  std::optional<size_t> open_block;  // error-report block being read
  bool block_frames = false;         // past its `TraceBack (most recent call last):`

  std::optional<size_t> open_warning;  // c10 warning still waiting for `(function x)`
  uint64_t warning_seq = 0;

  enum class Cont { none, after_err, error_text, warning_source } cont = Cont::none;
  bool blank_pending = false;  // the previous line was blank and counted unrecognised
};

class PythonLogParser {
 public:
  explicit PythonLogParser(ParseContext& ctx)
      : ctx_(ctx),
        py_(ctx.facts.python),
        entry_(ctx.entry.display.empty() ? ctx.entry.path : ctx.entry.display),
        tb_base_(ctx.facts.python.tracebacks.size()) {}

  void line(const Line& l);
  void finish();

 private:
  StreamState& stream_for(const Prefix& p);
  bool continues_block(std::string_view body) const;
  LineClass classify(StreamState& s, std::string_view body, bool& touched_tb);
  std::optional<LineClass> traceback_line(StreamState& s, std::string_view body,
                                          bool& touched_tb);
  std::optional<LineClass> block_line(StreamState& s, std::string_view body);

  void start_traceback(StreamState& s, bool header, std::string_view body);
  void add_frame(StreamState& s, const FrameLine& f);
  void complete_traceback(StreamState& s, const ExceptionLine& e);
  void truncate_open(StreamState& s);
  void close_chain(StreamState& s);
  void decide_anchor(size_t tb_index);
  void expire(StreamState& s);

  std::optional<size_t> add_err_line(StreamState& s, const ErrLineParts& e);
  std::optional<size_t> open_report(StreamState& s, const ReportHeader& h,
                                    std::string_view carrier);
  void fill_report(ErrorReportBlock& b, const ReportHeader& h);
  void report_body_line(StreamState& s, ErrorReportBlock& b, std::string_view body);
  std::optional<size_t> add_torch_error(StreamState& s, const TorchErrorParts& t,
                                        std::optional<size_t> traceback);
  std::optional<size_t> add_warning(StreamState& s, TorchWarning w);
  void on_err(StreamState& s, size_t index);
  void on_report(StreamState& s, size_t index);
  void close_block(StreamState& s) {
    s.open_block.reset();
    s.block_frames = false;
  }

  bool room(size_t& counter, size_t limit) {
    if (counter >= limit) {
      ++py_.dropped;
      return false;
    }
    ++counter;
    return true;
  }
  bool within_budget(size_t more) {
    if (kept_bytes_ >= kMaxKeptBytes) return false;
    kept_bytes_ += more;
    return true;
  }
  EvidenceRef evidence(std::string_view text) const {
    return make_evidence(entry_, cur_->number, cur_->offset, text);
  }
  PythonTraceback* tb(std::optional<size_t> i) { return i ? &py_.tracebacks[*i] : nullptr; }
  Candidates& cand(size_t tb_index) { return cand_[tb_index - tb_base_]; }

  ParseContext& ctx_;
  PythonFacts& py_;
  std::string entry_;
  size_t tb_base_;
  std::vector<Candidates> cand_;
  std::map<std::string, StreamState, std::less<>> streams_;
  StreamState* prev_ = nullptr;  // stream of the previous line
  const Line* cur_ = nullptr;
  size_t n_tracebacks_ = 0, n_torch_ = 0, n_err_ = 0, n_reports_ = 0, n_warnings_ = 0;
  size_t kept_bytes_ = 0;
  std::string tool_error_;
};

// Unprefixed lines right after a prefixed c10 warning or error report continue it: torch_npu
// prints the warning's multi-line message and the wrapper tags only its first line.
bool PythonLogParser::continues_block(std::string_view body) const {
  if (is_indented(body) && !is_blank(body)) return true;
  if (is_report_traceback(body) || has_func_tag(body) || !function_tail(body).empty()) return true;
  if (parse_error_text(body)) return true;
  auto h = parse_report_header(body);
  return h && !h->inner_error;
}

StreamState& PythonLogParser::stream_for(const Prefix& p) {
  if (p.label.empty() && prev_ && !py_.streams[prev_->index].label.empty() &&
      (prev_->open_block || prev_->open_warning) && continues_block(p.body))
    return *prev_;
  std::string_view key = p.label;
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
  Prefix p = split_prefix(l.text);
  StreamState& s = stream_for(p);
  ++s.seq;
  expire(s);
  bool touched_tb = false;
  LineClass c = classify(s, p.body, touched_tb);
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
  if (touched_tb) {
    s.open_tb_last = c;
    s.open_tb_last_line = l.number;
    s.open_tb_last_offset = l.offset;
  }
  prev_ = &s;
}

void PythonLogParser::expire(StreamState& s) {
  if ((s.tb == StreamState::Tb::after_exception && s.seq - s.exception_seq > kAnchorWindow) ||
      (s.tb == StreamState::Tb::separator && s.seq - s.separator_seq > kAnchorWindow))
    close_chain(s);
  if (s.open_warning && s.seq - s.warning_seq > kAnchorWindow) s.open_warning.reset();
}

// The traceback being assembled; nullopt when the line is not part of it.
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
  if (!is_blank(body) && lead > s.indent) {
    // the frame's source line, or a caret line / `[Previous line repeated N more times]`
    PythonTraceback* t = tb(s.open_tb);
    if (t && !s.frame_has_source && !t->frames.empty() && within_budget(trim(body).size())) {
      t->frames.back().source = cap(trim(body), kMaxText);
      s.frame_has_source = true;
    }
    touched_tb = true;
    return LineClass::parsed;
  }
  truncate_open(s);  // anything else cuts the traceback off; the line is read afresh
  return std::nullopt;
}

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
  if (s.open_block)
    if (auto c = block_line(s, body)) return *c;

  if (auto e = parse_err_line(body)) {
    close_block(s);
    if (auto i = add_err_line(s, *e)) on_err(s, *i);
    s.cont = StreamState::Cont::after_err;
    return LineClass::parsed;
  }
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
  if ((is_indented(body) && !is_blank(body)) || has_func_tag(body)) {
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

void PythonLogParser::finish() {
  for (auto& [key, s] : streams_) {
    if (s.tb == StreamState::Tb::frames) truncate_open(s);  // cut off at the end of the file
    close_chain(s);
  }
  ParseStats& st = ctx_.stats;
  if (!tool_error_.empty() && st.lines <= 3 && st.parsed == 0) st.not_collected = tool_error_;
}

}  // namespace

void parse_python_log(ParseContext& ctx, ByteSource& src) {
  ctx.stats.variant = "python";
  PythonLogParser parser(ctx);
  LineReader reader(src, ctx.options.limits.max_line_bytes);
  Line l;
  while (reader.next(l)) parser.line(l);
  parser.finish();
  ctx.stats.bytes = reader.bytes_read();
}

}  // namespace triage
