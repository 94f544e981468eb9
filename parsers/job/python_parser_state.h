#pragma once
// The Python-log parser's working state, shared by its four source files:
// python_parser.cpp (lines, streams, dispatch), python_tracebacks.cpp (tracebacks, chains,
// anchors), python_reports.cpp (error reports, ERR lines, torch_npu errors, warnings) and
// python_job_events.cpp (the job-output lines of parsers/job/job_lines.h as facts).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bundle/line_reader.h"
#include "knowledge/job_text_forms.h"
#include "parsers/common/level_line.h"
#include "parsers/common/parser.h"
#include "parsers/common/signature_hits.h"
#include "parsers/job/job_line_time.h"
#include "parsers/job/python_lines.h"
#include "parsers/plog/plog_parser.h"

namespace triage::pyparse {

using namespace pylines;


// Stream lines between an exception line and the ERR / E-code line that anchors it, and
// between an anchor candidate and a traceback that starts after it.
constexpr uint64_t kAnchorWindow = 64;
constexpr size_t kMaxStreams = 1024;          // per entry; further prefixes share the "" stream
// Per entry: how many facts of each table are kept (a flood of warnings cannot crowd out the
// tracebacks), and how many bytes of frames, source lines and report lines.
constexpr size_t kMaxTracebacks = 20000, kMaxReports = 20000, kMaxWarnings = 20000;
constexpr size_t kMaxTorchErrors = 50000, kMaxErrLines = 50000, kMaxJobEvents = 50000;
constexpr size_t kMaxKeptBytes = size_t{64} << 20;
constexpr size_t kMaxText = 512;              // kept source lines, details, frames

enum class LineClass { parsed, unrecognised, malformed };

inline std::string cap(std::string_view s, size_t n) { return std::string(s.substr(0, n)); }

inline size_t leading_spaces(std::string_view s) {
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

  std::optional<size_t> last_c10;    // job event of the last `Exception raised from`
  std::optional<int> last_acl_device;  // device of the last ACL sample line kept
  std::optional<int> last_launcher_rank;  // rank of the last DeepSpeed log_dist record kept
  std::optional<int64_t> last_glog_pid;    // pid of the last glog record kept
  // vLLM's logger prefixes every line of a multi-line record with the same text: the hash of
  // the last line's logger prefix (0: none), and whether its record has had a non-blank line.
  uint64_t logger_key = 0;
  bool record_text = false;
  // The time of the last line that printed one (job_line_time.h), which the lines after it
  // without a time of their own continue (issue 38): held in place, nothing allocated.
  struct Stamp {
    CivilTime local;  // year 0: the form prints none
    char text[40] = {};
    uint8_t size = 0;
    uint64_t seq = 0;  // the stream's line that printed it
    bool set = false;
    std::string_view view() const { return {text, size}; }
  } stamp;
};
// Lines after a stamped one that still take its time: a traceback or a long multi-line
// record, not the rest of a log whose logger stopped printing times.
constexpr uint64_t kStampCarryLines = 400;

// A log record of another logger (DeepSpeed, Python logging, glog, sglang, a plog line): its
// shape is recognised; plog lines also keep their facts.
enum class LogRecord { none, other, plog };

// What the job-line readers made of a line: nothing, its shape only (a logger's record whose
// level they do not judge: glog, DeepSpeed's rank records, ACL sample lines), or a reading
// that judged it (a fact, or a record whose level they weighed: MindSpore, MindCluster, ...).
// A line not judged may still carry an error level (PythonLogParser::level_line).
enum class JobRead { none, shape, judged };
LogRecord log_record(std::string_view body);

class PythonLogParser {
 public:
  explicit PythonLogParser(ParseContext& ctx)
      : ctx_(ctx),
        py_(ctx.facts.python),
        entry_(ctx.entry.display.empty() ? ctx.entry.path : ctx.entry.display),
        tb_base_(ctx.facts.python.tracebacks.size()),
        report_base_(ctx.facts.python.error_reports.size()),
        signatures_(knowledge_for(ctx.options.knowledge_dir), kSigJob),
        levels_(ctx.options.knowledge_dir),
        text_forms_(job_text_forms_for(ctx.options.knowledge_dir)) {}

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
  // parsers/job/python_job_events.cpp; `unclaimed`: no structure took the line
  JobRead job_line(StreamState& s, std::string_view body, bool unclaimed);
  // A line no reader judged that carries an error level (knowledge/error-levels.tsv): kept
  // as a level_line job event (issue 36: an error-level line is never silent). True when the
  // line has such a level (its shape is then known), whether or not a fact was kept.
  bool level_line(StreamState& s, const Prefix& p);
  // parsers/job/python_text_lines.cpp: a line no reader judged and no error-level form
  // starts: an error-level line of any shape (knowledge/job-text-forms.tsv role error, kept
  // as a level_line event of form "error text"), or a healthy run's progress line. True when
  // the line has such a form (its shape is then known).
  bool text_line(StreamState& s, const Prefix& p);
  // A job/handled-error signature hit among logs.signature_hits[from..]: the error lines of
  // stream `s` just before it are handled (knowledge/signatures/job.json).
  void handled_errors(const StreamState& s, size_t from);
  // The line's time (its own, else the stamp of the record it continues) on the signature
  // hits it gave from `from` on (issue 38).
  void line_time(StreamState& s, const Prefix& p, size_t from);
  void note_span(const joblines::LineTime& t);  // the entry's first and last stamped line
  std::optional<size_t> add_job_event(JobEvent e);
  void plog_line(const Line& l);
  // vLLM's engine banner names its version: `Initializing a V0 LLM engine (v0.7.3.dev191+g...)`.
  void banner_version(std::string_view body, const Line& l);
  // pip's install console: versions it fetched (`Collecting x==1`) or installed.
  bool pip_console(std::string_view body);
  void add_package(std::string_view name, std::string_view version, std::string_view kind);
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
  size_t report_base_;  // this entry's error reports start here
  void name_report_components();
  std::vector<Candidates> cand_;
  std::map<std::string, StreamState, std::less<>> streams_;
  StreamState* prev_ = nullptr;  // stream of the previous line
  const Line* cur_ = nullptr;
  size_t n_tracebacks_ = 0, n_torch_ = 0, n_err_ = 0, n_reports_ = 0, n_warnings_ = 0, n_job_ = 0;
  size_t kept_bytes_ = 0;
  std::string tool_error_;
  SignatureHitter signatures_;  // knowledge signatures whose sources name "job"
  LevelReader levels_;          // the error-level forms (knowledge/error-levels.tsv)
  const JobTextForms& text_forms_;  // knowledge/job-text-forms.tsv
  struct LevelSlot {
    uint32_t kept = 0;
    size_t last = 0;  // the last kept event of the template, in py_.job_events
  };
  std::unordered_map<uint64_t, LevelSlot> level_templates_;  // by template and pid, this entry
  std::string key_buf_, ansi_scratch_;  // reused from line to line
  // The last full date a line of this entry printed at its start (job_line_time.h): the year
  // of the year-less stamps after it (issue 38).
  std::optional<CivilTime> last_dated_;
  // The entry's span (JobSpan): the first stamped line kept once, the last one in place.
  std::string span_first_;
  EvidenceRef span_first_at_;
  char span_last_[40] = {};
  uint8_t span_last_size_ = 0;
  uint64_t span_last_line_ = 0, span_last_offset_ = 0, stamped_ = 0;
  ParseStats plog_stats_;  // plog lines on stdout: read by a plog reader of their own
  std::unique_ptr<ParseContext> plog_ctx_;
  std::unique_ptr<PlogFileParser> plog_;
};

// Unprefixed lines right after a prefixed c10 warning or error report continue it: torch_npu

}  // namespace triage::pyparse
