#pragma once
// Facts kept from Python job output and stderr (SourceKind::python_log), filled by
// parsers/job/python_parser.cpp: tracebacks, torch_npu error messages, `[ERROR] ... ERRxxxxx`
// lines, CANN error-report blocks (`EZ9999: Inner Error!` ...) and c10 / Python warnings.
// What is recognised and how tracebacks are time-anchored: docs/python-logs.md.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/evidence.h"
#include "model/time.h"

namespace triage {

// Lines that carry the same wrapper prefix form one stream: torchrun `[rank3]:`, a process
// tag `(VllmWorker TP1 pid=961)` / Ray `(train pid=8464)`, or both. Unprefixed output is the
// stream with an empty label. Streams of different entries are different streams.
struct PyStream {
  std::string entry;         // evidence entry of the file the stream was read from
  std::string label;         // the prefix as printed ("[rank1]:", "(train pid=8464)"), "" = none
  std::optional<int> rank;   // from `[rankN]:` / `[defaultN]:`
  std::string process_name;  // from `(name pid=N)`: "VllmWorker TP1", "EngineCore_DP0", "train"
  std::optional<int64_t> pid;  // from `(... pid=N)`
};

struct PyFrame {
  std::string file;      // as printed: "/opt/x/model_agent.py", "<frozen importlib._bootstrap>"
  uint64_t line = 0;
  std::string function;  // "" when the frame has no `, in <func>` part (SyntaxError)
  std::string source;    // the source line Python printed under the frame, trimmed; may be ""
  EvidenceRef evidence;  // the `File "..."` line
};

// How a traceback (which has no time of its own) got a time.
enum class PyAnchorKind {
  none,          // not time-anchored
  err_line,      // `[ERROR] <time> (PID:n, Device:d, RankID:r) ERRxxxxx ...` of the same stream
  error_report,  // `E????[PID: n] <time>` / `E????: <time>` header of the same stream
};
std::string_view to_string(PyAnchorKind k);

struct PyTimeAnchor {
  PyAnchorKind kind = PyAnchorKind::none;
  bool after_exception = true;  // true: printed after the exception line (part of its message);
                                // false: printed before the traceback began
  bool from_chain = false;      // taken from another exception of the same chain
  std::optional<int64_t> pid;
  std::optional<int> device;    // ERR lines only
  std::optional<int> rank;      // ERR lines only (-1 = not distributed)
  CivilTime local;              // local wall clock as printed
  Timestamp time;               // filled in finalize with zone_for_process(pid)
  std::string zone_origin;      // which zone converted it ("" = none known)
  EvidenceRef evidence;         // the anchoring line
};

enum class PyChainLink {
  none,             // first (or only) exception of its chain
  during_handling,  // "During handling of the above exception, another exception occurred:"
  direct_cause,     // "The above exception was the direct cause of the following exception:"
};
std::string_view to_string(PyChainLink l);

struct PythonTraceback {
  size_t stream = 0;          // index into PythonFacts::streams
  bool header_seen = false;   // `Traceback (most recent call last):` was seen (else the block
                              // started at a frame, or is a lone exception line)
  bool complete = false;      // the exception line was seen
  bool truncated = false;     // cut off: frames without an exception line (EOF or interrupted)
  std::vector<PyFrame> frames;  // outermost first; the innermost is frames.back()
  uint64_t frames_omitted = 0;  // frames dropped from the middle beyond kMaxFrames
  std::string exception_type;   // "RuntimeError", "torch.distributed.DistBackendError"
  std::string message;          // first line of the message, capped at kMaxMessage
  std::optional<int64_t> error_code;  // numeric code from the message or its torch_npu error
  std::string ecode;            // CANN error-report code ("EZ9999") of the message or its block
  std::optional<size_t> torch_error;   // index into PythonFacts::torch_errors (from the message)
  std::optional<size_t> err_line;      // index into PythonFacts::err_lines (associated)
  std::optional<size_t> error_report;  // index into PythonFacts::error_reports (associated)
  size_t chain = 0;           // chain id (unique per bundle); a lone exception is its own chain
  size_t chain_position = 0;  // 0 = first exception printed
  PyChainLink link = PyChainLink::none;
  bool last_in_chain = true;  // the exception that was finally raised
  PyTimeAnchor anchor;
  EvidenceRef evidence_start;      // header, or first line seen
  EvidenceRef evidence_exception;  // the exception line (empty when truncated)
  EvidenceRef evidence_innermost;  // the innermost frame's line (empty without frames)

  static constexpr size_t kMaxFrames = 256;
  static constexpr size_t kMaxMessage = 2048;
  const PyFrame* innermost() const { return frames.empty() ? nullptr : &frames.back(); }
};

enum class TorchErrorKind {
  npu_function_error,   // `<f>:<file>:<line> NPU function error: <call>, error code is N`
  hccl_function_error,  // `... HCCL function error: <call>, error code is N`
  ops_function_error,   // `... OPS function error: <call>, error code is N`
  acl_stream_sync,      // `ACL stream synchronize failed[, error code:N]` (older torch_npu)
  npu_error_legacy,     // `<f>:<file>:<line> NPU error,NPU error code is:N` (1.11 era)
  hccl_error_in,        // `[ERROR] HCCL error in: <file>:<line>`
  acl_error,            // `ACL error: N`, `ACL error, the error code is : N`
  runtime_call_failed,  // `rtStreamSynchronize execution failed, reason=task timeout`
  acl_call_failed,      // `[ERROR] aclrtSynchronizeStream(stream) failed: N (<file>:<line>)`
};
std::string_view to_string(TorchErrorKind k);

struct TorchNpuError {
  size_t stream = 0;
  TorchErrorKind kind = TorchErrorKind::npu_function_error;
  std::string cpp_function;  // "operator()", "npuSynchronizeDevice", "" when absent
  std::string cpp_file;      // "build/CMakeFiles/torch_npu.dir/compiler_depend.ts"
  uint64_t cpp_line = 0;
  std::string call;          // "c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream)",
                             // "rtStreamSynchronize"
  std::optional<int64_t> error_code;  // 507048, 107027, 7 (HCCL result), 100000 ...
  std::string reason;        // runtime_call_failed: "task timeout", "fftsplus timeout"
  std::optional<size_t> traceback;  // the traceback whose exception line carried it
  EvidenceRef evidence;
};

// `[ERROR] 2025-09-07-01:11:09 (PID:961, Device:1, RankID:-1) ERR00100 PTA call acl api failed`
struct ErrLine {
  size_t stream = 0;
  CivilTime local;       // seconds resolution, local time
  Timestamp time;        // filled in finalize
  std::string zone_origin;
  int64_t pid = 0;
  int device = 0;
  int rank = -1;
  std::string code;      // "ERR00100"
  std::string submodule; // "PTA", "OPS", "DIST", "GRAPH", "PROF"
  std::string text;      // "call acl api failed"
  std::string error_text;  // the following `[Error]: <text>` line, if any
  EvidenceRef evidence;
};

// One CANN error-report record as torch_npu / acl print it, in any of its header styles.
enum class ReportHeaderStyle {
  code_only,     // `EZ9999: Inner Error!` without a timed header following
  pid_bracket,   // `EZ9999[PID: 244584] 2026-01-06-19:37:15.407.487 (EZ9999):  msg` (newest)
  pid_colon,     // `EZ9999: [PID: 838] 2025-09-04-09:50:11.954.378 msg` (2025)
  time_only,     // `EI9999: 2024-10-21-10:42:00.358.410  msg` (2024, no PID)
  named,         // `[PID: 240911] <time> Invalid_Argument(EE1001): msg` (newest, named code)
  inline_text,   // `EZ9999: Inner Error, Please contact ...` flattened into another line
};
std::string_view to_string(ReportHeaderStyle s);

struct ReportFrame {
  std::string text;  // the line without its [FUNC:][FILE:][LINE:] tail, trimmed
  std::string func, file;
  uint64_t line = 0;
};

struct ErrorReportBlock {
  size_t stream = 0;
  std::string code;        // "EZ9999", "EE1001", "EI0006"
  std::string code_name;   // "Invalid_Argument" (named style only)
  ReportHeaderStyle style = ReportHeaderStyle::code_only;
  std::string carrier;     // what printed it: "" (own line), "warning", "RecentErrMsg",
                           // "CANN error", "exception"
  bool inner_error_line = false;  // an `E????: Inner Error!` line opened it
  std::optional<int64_t> pid;
  bool has_time = false;
  CivilTime local;         // local, microseconds
  Timestamp time;          // filled in finalize
  std::string zone_origin;
  std::string message;     // header message without its [FUNC..] tail, capped
  ReportFrame message_location;  // the header's [FUNC][FILE][LINE], if any
  std::vector<std::string> details;  // lines before `TraceBack`: Solution:, Possible Cause:, ...
  std::vector<ReportFrame> frames;   // the `TraceBack (most recent call last):` list
  uint64_t lines_omitted = 0;        // details/frames beyond the caps
  std::optional<int64_t> runtime_result;  // `runtime result = N` in the header or a frame
  std::string component;       // what its text names it as coming from (AICPU, HCCL), from
                               // knowledge/component-phrases.tsv; "" when nothing does
  EvidenceRef evidence;        // first line of the block
  EvidenceRef evidence_header; // the timed header (empty for code_only)

  static constexpr size_t kMaxFrames = 64;
  static constexpr size_t kMaxDetails = 16;
};

// A c10 log line (`[W106 19:37:15.186470670 compiler_depend.ts:57] Warning: ...`,
// `[W compiler_depend.ts:487] Warning: ...`, also E/I levels) or a Python warning
// (`/x/y.py:12: UserWarning: ...`).
struct TorchWarning {
  size_t stream = 0;
  bool python_warning = false;  // Python `warnings` output rather than a c10 line
  char level = 'W';             // c10 level letter: W, E, I
  std::string category;         // Python warning class ("UserWarning"); "" for c10
  bool has_time = false;        // c10 dated form (month, day and time; no year)
  int month = 0, day = 0, hour = 0, minute = 0, second = 0;
  int micros = 0;               // the nanoseconds printed, cut to microseconds
  Timestamp time;               // finalize: year estimated from the nearest dated line
  std::string source_file;      // "compiler_depend.ts", "/x/y.py"
  uint64_t source_line = 0;
  std::string message;          // without the leading "Warning: ", capped
  std::optional<int64_t> error_code;  // `error code is N`
  std::string function;         // the `(function npuSynchronizeDevice)` tail
  std::optional<size_t> error_report;  // the block its message opened (`Warning: EZ9999: ...`)
  EvidenceRef evidence;
};

// A line of job output that is neither a traceback nor a CANN report but names a failure:
// torch_npu's out-of-memory message, the dynamic loader, c10's C++ trace, ACL sample output,
// npu-smi / DCMI and driver errors. Recognised by parsers/job/job_lines.
enum class JobEventKind : uint8_t {
  npu_out_of_memory,  // `NPU out of memory. Tried to allocate 52.00 MiB (NPU 0; 60.96 GiB ...)`
  undefined_symbol,   // `<lib>.so: undefined symbol: <symbol>`
  library_missing,    // `<lib>.so: cannot open shared object file: No such file or directory`
  c10_raised_from,    // `Exception raised from <f> at <file>:<line> (most recent call first):`
  acl_call_failed,    // `[ERROR]  acl set device 0 failed, errorCode = 507033` (ACL samples)
  dcmi_error,         // `dcmi module initialize failed. ret is -8005` (npu-smi, exporters)
  driver_error,       // `DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)`, `dsmi ... ret = N`
  acl_device,         // `[INFO]  open device 0 success`: the device an ACL sample uses
  component_error,    // `[ERROR]    2024/10/28 08:50:46.650662 10  x.go:91  msg` (MindCluster)
  log_origin,         // another logger's record names who printed it, kept when it changes:
                      // DeepSpeed `[...] [INFO] [logging.py:107:log_dist] [Rank 0] ...` (rank),
                      // glog `I0708 15:01:14.136582 96875 init.cc:236] ...` (pid)
  framework_log,      // MindSpore's own ERROR/WARNING log line:
                      // `[ERROR] KERNEL(40354,fffdd6e1f1e0,python):2023-10-13-09:30:47.546.313 [f.cc:172] F] msg`
  report_line,        // a CANN report line whose header was cut away:
                      // `        open device 1 failed, runtime result = 107001.[FUNC:..][FILE:..][LINE:..]`
  app_log,            // an application's own logger, its error records:
                      // `20260831-01:43:41.474 [Trainer] ERROR: ...` (time as printed, code)
  id_values,          // an application's error line naming ids as key=value:
                      // `device fault reported: device_id=4 stream_id=46 task_id=0`
  repl_input,         // an interactive `>>> ` line that sets a device-visibility variable
                      // (call: the variable) or names torch_npu (call: "import" or "use")
  level_line,         // an error-level line no more specific reader claimed, of a form of
                      // knowledge/error-levels.tsv: `ERROR 04-18 15:43:36 [x.py:800] msg`,
                      // `[ERROR] TBE Subprocess[...] ...` (component: the module it names,
                      // form: the form's name, source: file:line, time, pid and code where
                      // it carries them)
};
std::string_view to_string(JobEventKind k);

struct JobEvent {
  size_t stream = 0;
  JobEventKind kind = JobEventKind::npu_out_of_memory;
  std::string code;            // "507033", "-8005" as printed
  std::optional<int> device;   // the NPU the line names
  std::optional<int64_t> pid;
  std::optional<int> rank;     // log_origin
  std::string library, symbol; // loader errors: the library missing or lacking the symbol
  std::string loaded_by;       // the library whose loading failed because of it
  std::string operator_name;   // an `aclnnXxx` / op type the line names
  std::string call;            // what failed: "acl set device 0", "dcmi module initialize",
                               // c10: the function of `Exception raised from`
  std::string source;          // c10: "file:line"; OOM: the figures in parentheses
  std::string tried, capacity, allocated, free, reserved;  // OOM figures as printed ("52.00 MiB")
  uint64_t frames = 0;         // c10: `frame #N:` lines that followed
  std::string time;            // component_error, framework_log, level_line: the time as printed
  std::string component;       // framework_log, level_line: the module (KERNEL, DEVICE, ME, ...)
  std::string form;            // level_line: the name of its form (knowledge/error-levels.tsv)
  // level_line: lines of the same template and pid past kPlogKeptPerTemplate kept ones,
  // counted here and not kept (issue 35's storm bound, as job signature hits fold).
  uint64_t repeats = 0;
  EvidenceRef evidence;
};

// When one job-output entry ran: its first and last line with a time of its own
// (parsers/job/job_line_time.h), as printed, so a healthy log says when it ran (issue 36).
struct JobSpan {
  std::string first, last;        // as printed ("03-24 22:22:41", "2024-10-18 10:02:34,337")
  EvidenceRef first_at, last_at;  // entry, line and offset (last_at has no excerpt)
  uint64_t stamped = 0;           // lines with a time of their own
};

struct PythonFacts {
  std::vector<PyStream> streams;
  std::vector<PythonTraceback> tracebacks;  // in file order of their first line
  std::vector<TorchNpuError> torch_errors;
  std::vector<ErrLine> err_lines;
  std::vector<ErrorReportBlock> error_reports;
  std::vector<TorchWarning> warnings;
  std::vector<JobEvent> job_events;
  std::vector<JobSpan> spans;  // one per job-output entry with a stamped line
  size_t chains = 0;    // next chain id
  uint64_t dropped = 0; // facts not kept: an entry exceeded a per-table cap (see docs)
};

}  // namespace triage
