#pragma once
// Recognisers for single lines of Python job output (torch_npu, CANN error reports, c10
// warnings). Pure functions of one line: they return views into the line and allocate
// nothing. The state machine that assembles them is parsers/job/python_parser.cpp.
#include <cstdint>
#include <optional>
#include <string_view>

#include "model/facts_python.h"
#include "model/strings.h"
#include "model/time.h"
#include "parsers/common/line_prefix.h"

namespace triage::pylines {

// Wrapper prefixes in front of the program's own text: the shared recogniser
// (parsers/common/line_prefix.h); `label` is the stream key.
using Prefix = LinePrefix;
// vLLM prints progress dots without a newline, so the next record starts after them:
// `....[rank0]:[E623 13:46:28.176383770 compiler_depend.ts:429] ...`.
inline std::string_view after_progress_dots(std::string_view line) {
  size_t dots = line.find_first_not_of('.');
  if (dots == 0 || dots == std::string_view::npos) return line;
  std::string_view rest = line.substr(dots);
  bool record = rest.starts_with("[rank") || rest.starts_with("(") || rest.starts_with("INFO ") ||
                rest.starts_with("WARNING ") || rest.starts_with("ERROR ");
  return record ? rest : line;
}
inline Prefix split_prefix(std::string_view line, std::string* scratch = nullptr) {
  return split_line_prefix(after_progress_dots(line), {}, scratch);
}

// `Traceback (most recent call last):` (Python's; CANN's `TraceBack` is another thing).
bool is_traceback_header(std::string_view body);
// "During handling of the above exception..." / "The above exception was the direct cause..."
PyChainLink chain_separator(std::string_view body);

struct FrameLine {
  std::string_view file, function;
  uint64_t line = 0;
};
// `  File "x.py", line 12, in f` (also without `, in f`).
std::optional<FrameLine> parse_frame(std::string_view body);
// Starts like a frame (`  File "`) whatever follows: a frame line that did not parse is damaged.
bool looks_like_frame(std::string_view body);

struct ExceptionLine {
  std::string_view type, message;
};
// `RuntimeError: msg`, `KeyboardInterrupt`, `torch.OutOfMemoryError: ...` at column 0.
std::optional<ExceptionLine> parse_exception_line(std::string_view body);
// The type names an exception (ends in Error, Exception, Interrupt, Exit, Timeout): used for
// exception lines printed without a traceback before them.
bool is_exception_type_name(std::string_view type);

struct ErrLineParts {
  std::string_view time_text, code, submodule, text;
  CivilTime local;
  int64_t pid = 0;
  int device = 0, rank = -1;
};
// `[ERROR] 2025-09-07-01:11:09 (PID:961, Device:1, RankID:-1) ERR00100 PTA call acl api failed`
std::optional<ErrLineParts> parse_err_line(std::string_view body);
// `[Error]: <text>` (torch_npu's human-readable text after an ERR line): the text.
std::optional<std::string_view> parse_error_text(std::string_view body);

// `[FUNC:f][FILE:x.cc][LINE:12]` at the end of CANN messages.
struct FuncTag {
  std::string_view text;  // what precedes the tag, trimmed
  std::string_view func, file;
  uint64_t line = 0;
  bool present = false;
};
FuncTag split_func_tag(std::string_view s);
bool has_func_tag(std::string_view s);

struct ReportHeader {
  ReportHeaderStyle style = ReportHeaderStyle::code_only;
  std::string_view code, code_name, message, time_text;
  std::string_view carrier;  // "RecentErrMsg", "CANN error" or ""
  std::optional<int64_t> pid;
  CivilTime local;
  bool has_time = false;
  bool time_malformed = false;  // a time field was there but is not a real date
  bool inner_error = false;     // `E????: Inner Error!`
};
// Any header of a CANN error-report block, after optional carriers (`[ERROR] RecentErrMsg: `,
// `CANN error: `).
std::optional<ReportHeader> parse_report_header(std::string_view body);
// An unindented line of HCCL's EI0002 message that continues the report: `there are(is) N
// abnormal device(s):` and the `]` that closes its list.
bool is_hccl_message_line(std::string_view body);
// `TraceBack (most recent call last):` opening a CANN frame list (any indentation).
bool is_report_traceback(std::string_view body);
// First CANN error code token (`EZ9999`, `EE1001`) in free text, "" if none.
std::string_view find_ecode(std::string_view text);

struct TorchErrorParts {
  TorchErrorKind kind = TorchErrorKind::npu_function_error;
  std::string_view cpp_function, cpp_file, call, reason;
  uint64_t cpp_line = 0;
  std::optional<int64_t> error_code;
};
// The first torch_npu / runtime error message in the text, if any.
std::optional<TorchErrorParts> find_torch_error(std::string_view text);
// `runtime result = N`
std::optional<int64_t> find_runtime_result(std::string_view text);
// `error code is N`
std::optional<int64_t> find_error_code_is(std::string_view text);

struct C10Line {
  char level = 'W';
  bool has_time = false;
  int month = 0, day = 0, hour = 0, minute = 0, second = 0, micros = 0;
  std::string_view time_text;      // "106 19:37:15.186470670" (dated form)
  std::string_view file, message;  // message without "Warning: "
  uint64_t line = 0;
};
// `[W106 19:37:15.186470670 compiler_depend.ts:57] Warning: ...`, `[W compiler_depend.ts:487] ...`
std::optional<C10Line> parse_c10_line(std::string_view body);

struct PyWarningLine {
  std::string_view file, category, message;
  uint64_t line = 0;
};
// `/x/y.py:12: UserWarning: message`
std::optional<PyWarningLine> parse_python_warning(std::string_view body);

// ` (function npuSynchronizeDevice)` ending a c10 warning: the function name, "" if absent.
std::string_view function_tail(std::string_view body);

// A tool's error text instead of the log ("cat: x: No such file or directory"): the reason.
std::optional<std::string_view> tool_error(std::string_view line);

// Parses `YYYY-MM-DD-HH:MM:SS[.mmm.uuu]` (a space may replace the middle dash).
bool parse_cann_time(std::string_view text, CivilTime& out);

inline bool is_blank(std::string_view s) {
  for (char c : s)
    if (c != ' ' && c != '\t') return false;
  return true;
}
inline bool is_indented(std::string_view s) { return !s.empty() && (s[0] == ' ' || s[0] == '\t'); }

}  // namespace triage::pylines
