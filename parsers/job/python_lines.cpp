#include "parsers/job/python_lines.h"

#include "model/strings.h"

#include <re2/re2.h>

#include <algorithm>

namespace triage::pylines {

namespace {

using re2::StringPiece;

// Every pattern is ASCII; Latin-1 mode lets any byte (invalid UTF-8 included) match `.`.
RE2::Options latin1() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);
  o.set_log_errors(false);
  return o;
}

std::string_view sv(const StringPiece& p) { return std::string_view(p.data(), p.size()); }

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}
bool is_word_char(char c) { return is_alnum(c) || c == '_'; }

// Decimal digits to a number; false when empty, not all digits, or too large.
bool to_u64(std::string_view s, uint64_t& out) {
  if (s.empty() || s.size() > 18) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (!is_digit(c)) return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  out = v;
  return true;
}
bool to_i64(std::string_view s, int64_t& out) {
  bool neg = !s.empty() && s[0] == '-';
  uint64_t v = 0;
  if (!to_u64(neg ? s.substr(1) : s, v)) return false;
  out = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}
bool to_int(std::string_view s, int& out) {
  int64_t v = 0;
  if (!to_i64(s, v) || v > 2000000000 || v < -2000000000) return false;
  out = static_cast<int>(v);
  return true;
}
std::optional<int64_t> opt_i64(std::string_view s) {
  int64_t v = 0;
  if (!to_i64(s, v)) return std::nullopt;
  return v;
}

}  // namespace


bool is_traceback_header(std::string_view body) {
  return trim(body) == "Traceback (most recent call last):";
}

PyChainLink chain_separator(std::string_view body) {
  std::string_view t = trim(body);
  if (t == "During handling of the above exception, another exception occurred:")
    return PyChainLink::during_handling;
  if (t == "The above exception was the direct cause of the following exception:")
    return PyChainLink::direct_cause;
  return PyChainLink::none;
}

bool looks_like_frame(std::string_view body) {
  return is_indented(body) && starts_with(trim(body), "File \"");
}

std::optional<FrameLine> parse_frame(std::string_view body) {
  if (!looks_like_frame(body)) return std::nullopt;
  static const RE2 kFrame(R"re(\s+File "(.+)", line (\d+)(?:, in (.+?))?\s*)re", latin1());
  StringPiece file, line, func;
  if (!RE2::FullMatch(body, kFrame, &file, &line, &func)) return std::nullopt;
  FrameLine f;
  if (!to_u64(sv(line), f.line)) return std::nullopt;
  f.file = sv(file);
  f.function = sv(func);
  return f;
}

std::optional<ExceptionLine> parse_exception_line(std::string_view body) {
  // identifier(.identifier)* [ "(" identifier ")" ] [ ":" [ " " message ] ]
  size_t k = 0;
  auto ident = [&]() {
    if (k >= body.size() || !(is_word_char(body[k]) && !is_digit(body[k]))) return false;
    while (k < body.size() && is_word_char(body[k])) ++k;
    return true;
  };
  if (!ident()) return std::nullopt;
  while (k < body.size() && body[k] == '.') {
    ++k;
    if (!ident()) return std::nullopt;
  }
  if (k < body.size() && body[k] == '(') {  // ray.exceptions.RayTaskError(RuntimeError)
    ++k;
    if (!ident()) return std::nullopt;
    while (k < body.size() && body[k] == '.') {
      ++k;
      if (!ident()) return std::nullopt;
    }
    if (k >= body.size() || body[k] != ')') return std::nullopt;
    ++k;
  }
  if (k > 200) return std::nullopt;
  ExceptionLine e;
  e.type = body.substr(0, k);
  if (k == body.size()) return e;
  if (body[k] != ':') return std::nullopt;
  ++k;
  if (k == body.size()) return e;
  if (body[k] != ' ') return std::nullopt;
  e.message = trim(body.substr(k + 1));
  return e;
}

bool is_exception_type_name(std::string_view type) {
  if (size_t paren = type.find('('); paren != std::string_view::npos) type = type.substr(0, paren);
  if (size_t dot = type.rfind('.'); dot != std::string_view::npos) type = type.substr(dot + 1);
  for (std::string_view suffix : {"Error", "Exception", "Interrupt", "Exit", "Timeout"})
    if (ends_with(type, suffix)) return true;
  return false;
}

std::optional<ErrLineParts> parse_err_line(std::string_view body) {
  // A paste whose indentation was collapsed to one blank (issue 36) keeps the report's form.
  body = trim_left(body);
  if (!starts_with(body, "[ERROR] ")) return std::nullopt;
  static const RE2 kErr(
      R"(\[ERROR\] (\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d(?:\.\d{3}\.\d{3})?) \(PID:(\d+), Device:(-?\d+), RankID:(-?\d+)\) (ERR\d{5}) ([A-Za-z]+) ?(.*))",
      latin1());
  StringPiece time, pid, dev, rank, code, sub, text;
  if (!RE2::FullMatch(body, kErr, &time, &pid, &dev, &rank, &code, &sub, &text))
    return std::nullopt;
  ErrLineParts e;
  if (!to_i64(sv(pid), e.pid) || !to_int(sv(dev), e.device) || !to_int(sv(rank), e.rank))
    return std::nullopt;
  if (!parse_cann_time(sv(time), e.local)) return std::nullopt;
  e.time_text = sv(time);
  e.code = sv(code);
  e.submodule = sv(sub);
  e.text = trim(sv(text));
  return e;
}

std::optional<std::string_view> parse_error_text(std::string_view body) {
  body = trim_left(body);  // as parse_err_line
  if (!starts_with(body, "[Error]:")) return std::nullopt;
  return trim(body.substr(8));
}

bool has_func_tag(std::string_view s) { return s.find("[FUNC:") != std::string_view::npos; }

FuncTag split_func_tag(std::string_view s) {
  FuncTag t;
  t.text = trim(s);
  size_t pos = s.rfind("[FUNC:");
  if (pos == std::string_view::npos) return t;
  static const RE2 kTag(R"(\[FUNC:([^\]]*)\]\[FILE:([^\]]*)\](?:\[LINE:(\d+)\])?\s*)", latin1());
  StringPiece func, file, line;
  if (!RE2::FullMatch(s.substr(pos), kTag, &func, &file, &line)) return t;
  t.present = true;
  t.text = trim(s.substr(0, pos));
  t.func = sv(func);
  t.file = sv(file);
  to_u64(sv(line), t.line);
  return t;
}

bool is_report_traceback(std::string_view body) {
  return trim(body) == "TraceBack (most recent call last):";
}

bool is_hccl_message_line(std::string_view body) {
  // HCCL's heartbeat list inside an EI0002 message: `there are(is) 1 abnormal device(s):`, the
  // devices indented, then `]` alone. Both start a line of their own, unindented.
  if (body == "]") return true;
  constexpr std::string_view kHead = "there are(is) ", kTail = " abnormal device(s):";
  if (!body.starts_with(kHead) || !body.ends_with(kTail)) return false;
  std::string_view n = body.substr(kHead.size(), body.size() - kHead.size() - kTail.size());
  return !n.empty() && n.size() <= 6 && std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<ReportHeader> parse_report_header(std::string_view body) {
  ReportHeader h;
  std::string_view s = body;
  if (starts_with(s, "[ERROR] RecentErrMsg: ")) {
    s.remove_prefix(22);
    h.carrier = "RecentErrMsg";
  } else if (size_t k = s.find("CANN error: "); k != std::string_view::npos) {
    s.remove_prefix(k + 12);
    h.carrier = "CANN error";
  }
  // A catalogue title before the code (`Communication_Error_Get_Socket(EI0006)`, the screen's
  // `Execution Error ROCE CQE(EI0013): ...`): the code in brackets right after a word.
  // Asked of every job line: the scan for "(E" only where a title can start (a capital).
  if (s.size() < 7) return std::nullopt;
  const bool coded = (s[0] == 'E' && (s[6] == ':' || s[6] == '[')) || starts_with(s, "[PID: ");
  bool titled = false;
  if (!coded && s[0] >= 'A' && s[0] <= 'Z') {
    const size_t paren = s.find("(E");
    titled = paren != std::string_view::npos && paren + 8 <= s.size() && s[paren + 7] == ')';
  }
  if (!coded && !titled) return std::nullopt;

  static const RE2 kInner(R"((E[0-9A-Z]\d{4}): Inner Error(.*))", latin1());
  static const RE2 kBracket(R"((E[0-9A-Z]\d{4})\[PID: (\d+)\] (\S+) \(E[0-9A-Z]\d{4}\): *(.*))",
                            latin1());
  static const RE2 kColon(R"((E[0-9A-Z]\d{4}): \[PID: (\d+)\] (\S+) *(.*))", latin1());
  // A header a paste damaged (`EE9999: [PID:  [4321] 2025-01-02-03:04:05.678.901 text`):
  // any blanks and stray brackets around the pid, but only before a CANN time, so ordinary
  // text after a code (`E39999: [PID: see above]`) stays a bare header.
  static const RE2 kDamaged(
      R"((E[0-9A-Z]\d{4}): ?\[PID: *\[? *(\d+) *\]? +(\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d(?:\.\d{3}\.\d{3})?) *(.*))",
      latin1());
  static const RE2 kTimeOnly(
      R"((E[0-9A-Z]\d{4}): (\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3}) *(.*))", latin1());
  // The title as the catalogue writes it (`Execution_Error_ROCE_CQE`) or as the screen prints
  // it (`Execution Error ROCE CQE`).
  static const RE2 kNamed(
      R"(\[PID: (\d+)\] (\S+) ([A-Za-z][A-Za-z0-9_/]*(?: [A-Za-z0-9_/]+)*)\((E[0-9A-Z]\d{4})\): *(.*))",
      latin1());
  // A title and its code with no pid or time: a fingerprint, a header a paste cut.
  static const RE2 kTitled(
      R"(([A-Z][A-Za-z0-9]*(?:[_ ][A-Za-z0-9]+)*)\((E[0-9A-Z]\d{4})\)(?:: *(.*))?)", latin1());
  static const RE2 kBare(R"((E[0-9A-Z]\d{4}): (.*))", latin1());

  StringPiece code, pid, time, name, msg;
  auto set_time = [&](StringPiece t) {
    h.time_text = sv(t);
    h.has_time = parse_cann_time(h.time_text, h.local);
    h.time_malformed = !h.has_time;
  };
  if (RE2::FullMatch(s, kInner, &code, &msg)) {
    h.style = ReportHeaderStyle::code_only;
    h.inner_error = true;
    std::string_view m = trim(sv(msg));
    while (!m.empty() && (m[0] == '!' || m[0] == ',')) m = trim(m.substr(1));
    h.message = m;
  } else if (RE2::FullMatch(s, kBracket, &code, &pid, &time, &msg)) {
    h.style = ReportHeaderStyle::pid_bracket;
    h.pid = opt_i64(sv(pid));
    set_time(time);
    h.message = trim(sv(msg));
  } else if (RE2::FullMatch(s, kColon, &code, &pid, &time, &msg)) {
    h.style = ReportHeaderStyle::pid_colon;
    h.pid = opt_i64(sv(pid));
    set_time(time);
    h.message = trim(sv(msg));
  } else if (RE2::FullMatch(s, kDamaged, &code, &pid, &time, &msg)) {
    h.style = ReportHeaderStyle::pid_colon;
    h.pid = opt_i64(sv(pid));
    set_time(time);
    h.message = trim(sv(msg));
  } else if (RE2::FullMatch(s, kTimeOnly, &code, &time, &msg)) {
    h.style = ReportHeaderStyle::time_only;
    set_time(time);
    h.message = trim(sv(msg));
  } else if (RE2::FullMatch(s, kNamed, &pid, &time, &name, &code, &msg)) {
    h.style = ReportHeaderStyle::named;
    h.pid = opt_i64(sv(pid));
    set_time(time);
    h.code_name = sv(name);
    h.message = trim(sv(msg));
  } else if (titled && RE2::FullMatch(s, kTitled, &name, &code, &msg)) {
    h.style = ReportHeaderStyle::named;
    h.code_name = sv(name);
    h.message = trim(sv(msg));
  } else if (RE2::FullMatch(s, kBare, &code, &msg)) {
    h.style = ReportHeaderStyle::code_only;
    h.message = trim(sv(msg));
  } else {
    return std::nullopt;
  }
  h.code = sv(code);
  return h;
}

std::string_view find_ecode(std::string_view text) {
  for (size_t i = 0; i + 6 <= text.size(); ++i) {
    if (text[i] != 'E' || (i > 0 && is_word_char(text[i - 1]))) continue;
    char c = text[i + 1];
    if (!(is_digit(c) || is_upper(c))) continue;
    bool digits = true;
    for (size_t k = i + 2; k < i + 6; ++k) digits = digits && is_digit(text[k]);
    if (!digits) continue;
    if (i + 6 < text.size() && is_word_char(text[i + 6])) continue;
    return text.substr(i, 6);
  }
  return {};
}

std::optional<TorchErrorParts> find_torch_error(std::string_view text) {
  // every message below says "...rror" or "failed": two scans keep ordinary lines cheap
  if (text.find("rror") == std::string_view::npos && text.find("failed") == std::string_view::npos)
    return std::nullopt;

  static const RE2 kFunction(
      R"((?:([A-Za-z_~][\w~]*(?:::[\w~]+)*(?:\(\))?):(\S+):(\d+) )?(NPU|HCCL|OPS) function error: (.*), error code is (\d+))",
      latin1());
  static const RE2 kLegacy(R"((?:(\w+):(\S+):(\d+) )?NPU error, ?NPU error code is: ?(\d+))",
                           latin1());
  static const RE2 kSync(R"(ACL stream synchronize failed(?:, error code:? ?(\d+))?)", latin1());
  static const RE2 kHcclIn(R"(\[ERROR\] HCCL error in: (\S+):(\d+))", latin1());
  static const RE2 kAclError(R"(ACL error(?:, the error code is)? ?: ?(\d+))", latin1());
  static const RE2 kRuntime(R"(\b((?:rt|acl)[A-Z]\w*) execut(?:e|ion) failed, reason=\[?([^\[\]]*))",
                            latin1());
  static const RE2 kAclCall(R"(\[ERROR\] ((acl\w*)\([^)]*\)) failed: (\d+)(?: \((.*):(\d+)\))?)",
                            latin1());

  TorchErrorParts t;
  StringPiece func, file, line, kind, call, code, reason;
  auto location = [&]() {
    t.cpp_function = sv(func);
    t.cpp_file = sv(file);
    to_u64(sv(line), t.cpp_line);
  };
  if (RE2::PartialMatch(text, kFunction, &func, &file, &line, &kind, &call, &code)) {
    std::string_view k = sv(kind);
    t.kind = k == "NPU"    ? TorchErrorKind::npu_function_error
             : k == "HCCL" ? TorchErrorKind::hccl_function_error
                           : TorchErrorKind::ops_function_error;
    location();
    t.call = sv(call);
    t.error_code = opt_i64(sv(code));
  } else if (RE2::PartialMatch(text, kLegacy, &func, &file, &line, &code)) {
    t.kind = TorchErrorKind::npu_error_legacy;
    location();
    t.error_code = opt_i64(sv(code));
  } else if (RE2::PartialMatch(text, kSync, &code)) {
    t.kind = TorchErrorKind::acl_stream_sync;
    t.call = "ACL stream synchronize";
    if (!code.empty()) t.error_code = opt_i64(sv(code));
  } else if (RE2::PartialMatch(text, kHcclIn, &file, &line)) {
    t.kind = TorchErrorKind::hccl_error_in;
    t.cpp_file = sv(file);
    to_u64(sv(line), t.cpp_line);
  } else if (RE2::PartialMatch(text, kAclError, &code)) {
    t.kind = TorchErrorKind::acl_error;
    t.error_code = opt_i64(sv(code));
  } else if (RE2::PartialMatch(text, kRuntime, &call, &reason)) {
    t.kind = TorchErrorKind::runtime_call_failed;
    t.call = sv(call);
    std::string_view r = trim(sv(reason));
    while (!r.empty() && (r.back() == '.' || r.back() == ',')) r.remove_suffix(1);
    t.reason = r;
  } else if (RE2::PartialMatch(text, kAclCall, &call, &func, &code, &file, &line)) {
    t.kind = TorchErrorKind::acl_call_failed;
    t.call = sv(call);
    t.error_code = opt_i64(sv(code));
    t.cpp_file = sv(file);
    to_u64(sv(line), t.cpp_line);
  } else {
    return std::nullopt;
  }
  return t;
}

namespace {
std::optional<int64_t> number_after(std::string_view text, std::string_view marker) {
  size_t k = text.find(marker);
  if (k == std::string_view::npos) return std::nullopt;
  size_t b = k + marker.size(), e = b;
  while (e < text.size() && is_digit(text[e])) ++e;
  return opt_i64(text.substr(b, e - b));
}
}  // namespace

std::optional<int64_t> find_runtime_result(std::string_view text) {
  return number_after(text, "runtime result = ");
}

std::optional<int64_t> find_error_code_is(std::string_view text) {
  return number_after(text, "error code is ");
}

std::optional<C10Line> parse_c10_line(std::string_view body) {
  if (body.size() < 5 || body[0] != '[') return std::nullopt;
  char level = body[1];
  if (level != 'W' && level != 'E' && level != 'I' && level != 'F') return std::nullopt;
  // `[W106 ...` or `[W file:N]`: anything else (`[INFO]  ...` of ACL samples) is rejected
  // before the regex, whose submatch search would allocate.
  if (!is_digit(body[2]) && body[2] != ' ') return std::nullopt;
  static const RE2 kDated(
      R"(\[([WEIF])((\d{1,2})(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?) (?:\d+ )?([^\]\s:]+):(\d+)\] ?(.*))",
      latin1());
  static const RE2 kPlain(R"(\[([WEIF]) ([^\]\s:]+):(\d+)\] ?(.*))", latin1());
  StringPiece lv, tt, mo, da, hh, mm, ss, frac, file, line, msg;
  C10Line c;
  if (RE2::FullMatch(body, kDated, &lv, &tt, &mo, &da, &hh, &mm, &ss, &frac, &file, &line, &msg)) {
    c.time_text = sv(tt);
    c.has_time = to_int(sv(mo), c.month) && to_int(sv(da), c.day) && to_int(sv(hh), c.hour) &&
                 to_int(sv(mm), c.minute) && to_int(sv(ss), c.second);
    std::string_view f = sv(frac);
    int micros = 0, digits = 0;
    for (char ch : f.substr(0, 6)) {
      micros = micros * 10 + (ch - '0');
      ++digits;
    }
    while (digits > 0 && digits < 6) {
      micros *= 10;
      ++digits;
    }
    c.micros = micros;
    if (c.month < 1 || c.month > 12 || c.day < 1 || c.day > 31 || c.hour > 23 ||
        c.minute > 59 || c.second > 60)
      c.has_time = false;
  } else if (!RE2::FullMatch(body, kPlain, &lv, &file, &line, &msg)) {
    return std::nullopt;
  }
  c.level = level;
  c.file = sv(file);
  to_u64(sv(line), c.line);
  std::string_view m = sv(msg);
  if (starts_with(m, "Warning: ")) m.remove_prefix(9);
  c.message = trim(m);
  return c;
}

std::optional<PyWarningLine> parse_python_warning(std::string_view body) {
  if (body.find("Warning: ") == std::string_view::npos) return std::nullopt;
  static const RE2 kWarn(R"((\S.*?\.py):(\d+): ([A-Z][A-Za-z0-9_]*Warning): (.*))", latin1());
  StringPiece file, line, cat, msg;
  if (!RE2::FullMatch(body, kWarn, &file, &line, &cat, &msg)) return std::nullopt;
  PyWarningLine w;
  w.file = sv(file);
  to_u64(sv(line), w.line);
  w.category = sv(cat);
  w.message = trim(sv(msg));
  return w;
}

std::string_view function_tail(std::string_view body) {
  std::string_view t = trim(body);
  if (t.empty() || t.back() != ')') return {};
  size_t k = t.rfind("(function ");
  if (k == std::string_view::npos) return {};
  std::string_view name = t.substr(k + 10, t.size() - k - 11);
  if (name.empty()) return {};
  for (char c : name)
    if (!(is_word_char(c) || c == ':' || c == '~')) return {};
  return name;
}

std::optional<std::string_view> tool_error(std::string_view line) {
  static const RE2 kTool(
      R"([\w./-]+: .*(?:No such file or directory|Permission denied|command not found|Operation not permitted))",
      latin1());
  std::string_view t = trim(line);
  if (!RE2::FullMatch(t, kTool)) return std::nullopt;
  return t;
}

bool parse_cann_time(std::string_view s, CivilTime& out) {
  if (s.size() != 19 && s.size() != 27) return false;
  auto num = [&](size_t at, size_t n, int& v) {
    v = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (!is_digit(s[i])) return false;
      v = v * 10 + (s[i] - '0');
    }
    return true;
  };
  CivilTime t;
  if (!num(0, 4, t.year) || s[4] != '-' || !num(5, 2, t.month) || s[7] != '-' ||
      !num(8, 2, t.day) || (s[10] != '-' && s[10] != ' ') || !num(11, 2, t.hour) ||
      s[13] != ':' || !num(14, 2, t.minute) || s[16] != ':' || !num(17, 2, t.second))
    return false;
  if (s.size() == 27) {
    int ms = 0, us = 0;
    if (s[19] != '.' || !num(20, 3, ms) || s[23] != '.' || !num(24, 3, us)) return false;
    t.micros = ms * 1000 + us;
  }
  if (!t.valid()) return false;
  out = t;
  return true;
}

}  // namespace triage::pylines
