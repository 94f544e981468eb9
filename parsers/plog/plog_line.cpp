#include "parsers/plog/plog_line.h"
#include "model/strings.h"

#include "parsers/common/line_prefix.h"

#include <cstring>

namespace triage {

std::string_view to_string(PlogShape s) {
  switch (s) {
    case PlogShape::none: return "none";
    case PlogShape::tid_glued: return "tid_glued";
    case PlogShape::tid_spaced: return "tid_spaced";
    case PlogShape::hccl: return "hccl";
    case PlogShape::tagged: return "tagged";
    case PlogShape::hccp: return "hccp";
    case PlogShape::func_tid: return "func_tid";
    case PlogShape::profiling: return "profiling";
    case PlogShape::drv: return "drv";
    case PlogShape::drv_tagged: return "drv_tagged";
    case PlogShape::tdt_trailing: return "tdt_trailing";
    case PlogShape::plain: return "plain";
    case PlogShape::tsch: return "tsch";
    case PlogShape::klogd: return "klogd";
    case PlogShape::awatchdog: return "awatchdog";
    case PlogShape::no_time: return "no_time";
  }
  return "none";
}

std::string_view to_string(PlogPrefix p) {
  switch (p) {
    case PlogPrefix::none: return "none";
    case PlogPrefix::whitespace: return "whitespace";
    case PlogPrefix::grep_n: return "grep-n";
    case PlogPrefix::grep_h: return "grep-h";
    case PlogPrefix::embedded: return "embedded";
  }
  return "none";
}

namespace {

using sv = std::string_view;

inline bool is_upper_mod(char c) { return (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_'; }

// Reads an unsigned decimal of 1..18 digits at s[i]; false when none.
inline bool read_uint(sv s, size_t& i, int64_t& v) {
  size_t start = i;
  v = 0;
  while (i < s.size() && is_digit(s[i]) && i - start < 18) v = v * 10 + (s[i++] - '0');
  return i > start && !(i < s.size() && is_digit(s[i]));
}

inline bool read_int(sv s, size_t& i, int64_t& v) {
  bool neg = i < s.size() && s[i] == '-';
  if (neg) ++i;
  if (!read_uint(s, i, v)) return false;
  if (neg) v = -v;
  return true;
}

inline bool all_digits(sv s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_digit(c)) return false;
  return true;
}

inline int64_t to_int(sv s) {
  int64_t v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}


// Fixed-width digits at s[i..i+n).
inline bool digits_at(sv s, size_t i, size_t n, int& v) {
  if (i + n > s.size()) return false;
  v = 0;
  for (size_t k = 0; k < n; ++k) {
    char c = s[i + k];
    if (!is_digit(c)) return false;
    v = v * 10 + (c - '0');
  }
  return true;
}

// `Func:rest` -> function and message; the function is one token without blanks.
void split_function(sv body, PlogLine& out) {
  body = trim_left(body);
  size_t i = 0;
  while (i < body.size() && body[i] != ':' && body[i] != ' ' && body[i] != '[' &&
         body[i] != '(' && body[i] != '"')
    ++i;
  // "operator()" style names keep their parentheses.
  if (i < body.size() && body[i] == '(' && i + 1 < body.size() && body[i + 1] == ')') {
    i += 2;
    if (i < body.size() && body[i] != ':') i = body.size();  // not a function token
  }
  if (i > 0 && i < body.size() && body[i] == ':') {
    out.function = body.substr(0, i);
    out.message = trim_left(body.substr(i + 1));
  } else {
    out.function = {};
    out.message = body;
  }
}

// APP (torch_npu) lines read "TID path/file.ts:func:LINE: msg": the path is no function.
void source_function(PlogLine& out) {
  if (out.function.find('/') == sv::npos && !out.function.ends_with(".ts")) return;
  sv m = out.message;
  size_t c1 = m.find(':');
  if (c1 == sv::npos || c1 == 0) return;
  size_t c2 = m.find(':', c1 + 1);
  if (c2 == sv::npos || !all_digits(m.substr(c1 + 1, c2 - c1 - 1))) return;
  for (size_t k = 0; k < c1; ++k)
    if (m[k] == ' ') return;
  out.tags = out.function;
  out.function = m.substr(0, c1);
  out.message = trim_left(m.substr(c2 + 1));
}

// Parses a `[file:line]` marker at body[0]; `file` may be a relative path and may hold a
// blank (2020 tsdrv), and a blank may stand before the number (`[npu_driver.cc: 102]`).
bool file_marker(sv body, size_t& end, PlogLine& out) {
  if (body.empty() || body[0] != '[') return false;
  size_t close = body.find(']', 1);
  if (close == sv::npos || close > 400) return false;
  sv inside = body.substr(1, close - 1);
  size_t colon = inside.rfind(':');
  if (colon == sv::npos || colon == 0) return false;
  sv num = trim_left(inside.substr(colon + 1));
  if (!all_digits(num) || num.size() > 9) return false;
  out.file = inside.substr(0, colon);
  out.line = num;
  out.line_value = static_cast<uint32_t>(to_int(num));
  end = close + 1;
  return true;
}

// `name NNN` inside a DRV tag: function and its line.
bool func_line_tag(sv tag, sv& func, sv& line) {
  size_t sp = tag.rfind(' ');
  if (sp == sv::npos || sp == 0) return false;
  sv num = tag.substr(sp + 1);
  if (!all_digits(num)) return false;
  func = tag.substr(0, sp);
  line = num;
  return true;
}

// `[ascend][curpid: PID, TID][drv][devmm][func LINE]msg`, `[dmp] [func LINE] msg`,
// 2025 `[ascend][curpid:PID,TID][drv][devmm][func]msg`.
bool parse_drv_tags(sv body, PlogLine& out) {
  size_t i = 0;
  size_t tags_begin = sv::npos, tags_end = 0;
  bool ascend = false, have_func = false;
  sv last_tag;
  size_t last_tag_begin = 0;
  while (i < body.size()) {
    size_t j = i;
    if (body[j] == ' ' && j + 1 < body.size() && body[j + 1] == '[') ++j;
    if (body[j] != '[') break;
    size_t close = body.find(']', j + 1);
    if (close == sv::npos) return false;
    sv tag = body.substr(j + 1, close - j - 1);
    i = close + 1;
    if (tag == "ascend") {
      ascend = true;
      continue;
    }
    if (tag.substr(0, 7) == "curpid:") {
      sv ids = tag.substr(7);
      size_t comma = ids.find(',');
      sv p = trim(ids.substr(0, comma));
      sv t = comma == sv::npos ? sv{} : trim(ids.substr(comma + 1));
      if (!all_digits(p)) return false;
      if (all_digits(t)) {
        out.tid = t;
        out.tid_value = to_int(t);
      }
      continue;
    }
    sv func, line;
    if (func_line_tag(tag, func, line)) {
      out.function = func;
      if (out.file.empty()) {
        out.line = line;
        out.line_value = static_cast<uint32_t>(to_int(line));
      }
      have_func = true;
      break;
    }
    if (tags_begin == sv::npos) tags_begin = j;
    tags_end = i;
    last_tag = tag;
    last_tag_begin = j;
  }
  if (!have_func && ascend && !last_tag.empty()) {
    // 2025 form: the last tag is the function, without a line number.
    out.function = last_tag;
    tags_end = last_tag_begin;
    have_func = true;
  }
  if (!have_func) return false;
  if (tags_begin != sv::npos && tags_end > tags_begin)
    out.tags = body.substr(tags_begin, tags_end - tags_begin);
  out.message = trim_left(body.substr(i));
  out.shape = ascend ? PlogShape::drv : PlogShape::drv_tagged;
  return true;
}

// `msg,[file:line:Func]TID` at the end of the body (2021 TDT).
bool parse_tdt_trailing(sv body, PlogLine& out) {
  if (body.empty() || !is_digit(body.back())) return false;
  size_t open = body.rfind(",[");
  if (open == sv::npos) return false;
  size_t close = body.find(']', open + 2);
  if (close == sv::npos) return false;
  sv tid = body.substr(close + 1);
  if (!all_digits(tid)) return false;
  sv inside = body.substr(open + 2, close - open - 2);
  size_t c2 = inside.rfind(':');
  if (c2 == sv::npos) return false;
  size_t c1 = inside.rfind(':', c2 - 1);
  if (c1 == sv::npos || c1 == 0 || c2 == 0) return false;
  sv line = inside.substr(c1 + 1, c2 - c1 - 1);
  if (!all_digits(line)) return false;
  out.file = inside.substr(0, c1);
  out.line = line;
  out.line_value = static_cast<uint32_t>(to_int(line));
  out.function = inside.substr(c2 + 1);
  out.tid = tid;
  out.tid_value = to_int(tid);
  out.message = trim_left(body.substr(0, open));
  out.shape = PlogShape::tdt_trailing;
  return true;
}

// KERNEL module: `[SEQ] message` (klogd's sequence).
bool parse_klogd(sv module, sv body, PlogLine& out) {
  if (module != "KERNEL" || body.empty() || body[0] != '[') return false;
  size_t close = body.find(']');
  if (close == sv::npos) return false;
  out.sequence = body.substr(1, close - 1);
  out.message = trim_left(body.substr(close + 1));
  out.shape = PlogShape::klogd;
  return true;
}

// `]TID Func:msg` (glued) or `] TID Func:msg` (spaced).
bool parse_tid_first(sv body, PlogLine& out) {
  bool spaced = body.size() > 1 && body[0] == ' ' && is_digit(body[1]);
  if (!spaced && (body.empty() || !is_digit(body[0]))) return false;
  size_t start = spaced ? 1 : 0, i = start;
  int64_t v;
  if (!read_uint(body, i, v) || (i != body.size() && body[i] != ' ')) return false;
  out.tid = body.substr(start, i - start);
  out.tid_value = v;
  out.shape = spaced ? PlogShape::tid_spaced : PlogShape::tid_glued;
  split_function(body.substr(i), out);
  if (!spaced) source_function(out);
  return true;
}

// PROFILING / ATRACE: " >>> (tid:N) msg", " (tid:N) msg", "(tid:N) msg".
bool parse_profiling(sv body, PlogLine& out) {
  sv b = body;
  if (b.substr(0, 5) == " >>> ") b = b.substr(5);
  else if (b.substr(0, 1) == " ") b = b.substr(1);
  if (b.substr(0, 5) != "(tid:") return false;
  size_t k = 5;
  int64_t v;
  if (!read_uint(b, k, v) || k >= b.size() || b[k] != ')') return false;
  out.tid = b.substr(5, k - 5);
  out.tid_value = v;
  out.message = trim_left(b.substr(k + 1));
  out.shape = PlogShape::profiling;
  return true;
}

// HCCP: `tid:N,func : msg`.
bool parse_hccp(sv body, PlogLine& out) {
  if (body.substr(0, 4) != "tid:") return false;
  size_t k = 4;
  int64_t v;
  if (!read_uint(body, k, v) || k >= body.size() || body[k] != ',') return false;
  out.tid = body.substr(4, k - 4);
  out.tid_value = v;
  sv rest = body.substr(k + 1);
  size_t colon = rest.find(':');
  if (colon != sv::npos && rest.substr(0, colon).find('[') == sv::npos) {
    out.function = trim(rest.substr(0, colon));
    out.message = trim_left(rest.substr(colon + 1));
  } else {
    out.message = trim_left(rest);
  }
  out.shape = PlogShape::hccp;
  return true;
}

// HCCL: `[TID][Func]msg`, with an optional file tag: `[TID][adapter_rts.cc][Func]msg`.
// `rest` is what follows `[TID]`.
void parse_hccl_tags(sv tid, sv rest, PlogLine& out) {
  out.tid = tid;
  out.tid_value = to_int(tid);
  if (rest.size() > 2 && rest[0] == '[') {
    size_t c2 = rest.find(']');
    sv t = c2 == sv::npos ? sv{} : rest.substr(1, c2 - 1);
    if (t.ends_with(".cc") || t.ends_with(".cpp") || t.ends_with(".c")) {
      out.tags = rest.substr(0, c2 + 1);
      rest = rest.substr(c2 + 1);
    }
  }
  if (!rest.empty() && rest[0] == '[') {
    size_t c2 = rest.find(']');
    if (c2 != sv::npos) {
      out.function = rest.substr(1, c2 - 1);
      out.message = trim_left(rest.substr(c2 + 1));
    } else {
      out.message = rest;
    }
  } else {
    out.message = trim_left(rest);
  }
  out.shape = PlogShape::hccl;
}

// `[Func][tid:N] msg` (the tag before [tid:N] is the function), else `[tag][tag]msg`.
void parse_tag_walk(sv b, PlogLine& out) {
  size_t k = 0;
  size_t tags_begin = 0;
  sv prev_tag;
  size_t prev_begin = 0;
  while (k < b.size() && b[k] == '[') {
    size_t c = b.find(']', k + 1);
    if (c == sv::npos) break;
    sv tag = b.substr(k + 1, c - k - 1);
    if (tag.substr(0, 4) == "tid:" && all_digits(tag.substr(4))) {
      out.tid = tag.substr(4);
      out.tid_value = to_int(out.tid);
      out.function = prev_tag;
      if (!prev_tag.empty() && prev_begin > tags_begin)
        out.tags = b.substr(tags_begin, prev_begin - tags_begin);
      out.message = trim_left(b.substr(c + 1));
      if (!out.message.empty() && out.message[0] == ':') out.message = out.message.substr(1);
      out.shape = PlogShape::func_tid;
      return;
    }
    prev_tag = tag;
    prev_begin = k;
    k = c + 1;
  }
  out.tags = b.substr(0, k);
  out.message = trim_left(b.substr(k));
  out.shape = PlogShape::tagged;
}

// Tags: "[Func][tid:N] msg", " [TID][Func]msg", "[TID][file][Func] msg", "[tag][tag]msg".
bool parse_bracket_tags(sv body, PlogLine& out) {
  sv b = body.size() > 1 && body[0] == ' ' && body[1] == '[' ? body.substr(1) : body;
  if (b.empty() || b[0] != '[') return false;
  size_t close = b.find(']');
  if (close == sv::npos) return false;
  sv first = b.substr(1, close - 1);
  if (all_digits(first)) parse_hccl_tags(first, b.substr(close + 1), out);
  else parse_tag_walk(b, out);
  return true;
}

// Body after `[file:line]`, by what follows the marker: the first shape that fits.
void parse_after_marker(sv module, sv body, PlogLine& out) {
  bool drv = module == "DRV" || body.substr(0, 8) == "[ascend]";
  if (parse_klogd(module, body, out) || parse_tdt_trailing(body, out) ||
      parse_tid_first(body, out) || parse_profiling(body, out) || parse_hccp(body, out) ||
      (drv && parse_drv_tags(body, out)) || parse_bracket_tags(body, out))
    return;
  out.shape = PlogShape::plain;
  split_function(body, out);
}

// TSCH firmware body: `SEQ (dieid:N,cpuid:N) file.c:LINE func: message`.
bool parse_tsch_body(sv body, PlogLine& out) {
  size_t i = 0;
  int64_t seq;
  if (!read_uint(body, i, seq) || i >= body.size() || body[i] != ' ') return false;
  out.sequence = body.substr(0, i);
  ++i;
  if (i < body.size() && body[i] == '(') {
    size_t close = body.find(')', i);
    if (close == sv::npos) return false;
    out.tags = body.substr(i, close - i + 1);
    i = close + 1;
    while (i < body.size() && body[i] == ' ') ++i;
  }
  size_t sp = body.find(' ', i);
  sv fl = body.substr(i, sp == sv::npos ? sv::npos : sp - i);
  size_t colon = fl.rfind(':');
  if (colon == sv::npos || !all_digits(fl.substr(colon + 1))) {
    // IMP names no source file: `70 (device_id:1 die_id:0) [IMP] present 1, mac_link 1, ...`
    if (out.tags.empty() || i >= body.size() || body[i] != '[') return false;
    out.shape = PlogShape::tsch;
    out.message = body.substr(i);
    return true;
  }
  out.file = fl.substr(0, colon);
  out.line = fl.substr(colon + 1);
  out.line_value = static_cast<uint32_t>(to_int(out.line));
  out.shape = PlogShape::tsch;
  split_function(sp == sv::npos ? sv{} : body.substr(sp + 1), out);
  return true;
}

PlogResult malformed(PlogLine& out, const char* why) {
  out.malformed_reason = why;
  return PlogResult::malformed;
}

// `[LEVEL][pid:N][file:line](tid:N) msg`
PlogResult parse_awatchdog(sv s, size_t i, PlogLine& out) {
  if (s.substr(i, 5) != "[pid:") return PlogResult::not_plog;
  size_t k = i + 5;
  int64_t pid;
  if (!read_uint(s, k, pid) || k >= s.size() || s[k] != ']') return malformed(out, "bad pid");
  out.pid = s.substr(i + 5, k - i - 5);
  out.pid_value = pid;
  sv body = s.substr(k + 1);
  size_t end;
  if (!file_marker(body, end, out)) return malformed(out, "no file marker");
  sv rest = body.substr(end);
  if (rest.substr(0, 5) == "(tid:") {
    size_t t = 5;
    int64_t v;
    if (read_uint(rest, t, v) && t < rest.size() && rest[t] == ')') {
      out.tid = rest.substr(5, t - 5);
      out.tid_value = v;
      rest = rest.substr(t + 1);
    }
  }
  out.message = trim(rest);
  out.shape = PlogShape::awatchdog;
  return PlogResult::parsed;
}

}  // namespace

PlogLevel plog_level_from(sv w) {
  switch (w.size()) {
    case 4:
      if (w == "INFO") return PlogLevel::info;
      if (w == "WARN") return PlogLevel::warning;
      break;
    case 5:
      if (w == "ERROR") return PlogLevel::error;
      if (w == "EVENT") return PlogLevel::event;
      if (w == "DEBUG") return PlogLevel::debug;
      if (w == "TRACE") return PlogLevel::debug;  // HCCL's [TRACE] init lines: below INFO
      break;
    case 7:
      if (w == "WARNING") return PlogLevel::warning;
      break;
  }
  return PlogLevel::other;
}

size_t parse_plog_time(sv s, CivilTime& t, char& sep) {
  // YYYY-MM-DD?HH:MM:SS then optional .mmm and .uuu groups
  if (s.size() < 19) return 0;
  if (!digits_at(s, 0, 4, t.year) || s[4] != '-' || !digits_at(s, 5, 2, t.month) || s[7] != '-' ||
      !digits_at(s, 8, 2, t.day) || (s[10] != '-' && s[10] != ' ') ||
      !digits_at(s, 11, 2, t.hour) || s[13] != ':' || !digits_at(s, 14, 2, t.minute) ||
      s[16] != ':' || !digits_at(s, 17, 2, t.second))
    return 0;
  sep = s[10];
  size_t i = 19;
  int ms = 0, us = 0;
  // Some HCCL builds print `20:10:17:012.780` (a colon before the milliseconds).
  if (i < s.size() && (s[i] == '.' || (s[i] == ':' && i + 4 < s.size() && s[i + 4] == '.'))) {
    if (!digits_at(s, i + 1, 3, ms)) return 0;
    i += 4;
    if (i < s.size() && s[i] == '.') {
      if (!digits_at(s, i + 1, 3, us)) return 0;
      i += 4;
    }
  }
  if (i < s.size() && is_digit(s[i])) return 0;
  t.micros = ms * 1000 + us;
  return t.valid() ? i : 0;
}

PlogResult parse_plog_at(sv s, PlogLine& out) {
  // [LEVEL]
  if (s.size() < 3 || s[0] != '[') return PlogResult::not_plog;
  size_t close = 1;
  while (close < s.size() && close < 10 && s[close] >= 'A' && s[close] <= 'Z') ++close;
  if (close >= s.size() || s[close] != ']' || close == 1) return PlogResult::not_plog;
  out.level = s.substr(1, close - 1);
  out.level_id = plog_level_from(out.level);
  if (out.level_id == PlogLevel::other) return PlogResult::not_plog;
  size_t i = close + 1;
  if (i < s.size() && s[i] == '[') return parse_awatchdog(s, i, out);
  if (i >= s.size() || s[i] != ' ') return PlogResult::not_plog;
  ++i;
  // MODULE(
  size_t m = i;
  while (i < s.size() && is_upper_mod(s[i])) ++i;
  if (i == m || i >= s.size() || s[i] != '(' || i - m > 24) return PlogResult::not_plog;
  out.module = s.substr(m, i - m);
  ++i;
  // PID
  size_t p = i;
  int64_t pid;
  if (!read_int(s, i, pid)) {
    if (i >= s.size()) return malformed(out, "header breaks off");
    return malformed(out, "bad pid");
  }
  out.pid = s.substr(p, i - p);
  out.pid_value = pid;
  if (i >= s.size()) return malformed(out, "header breaks off");
  if (s[i] == ')') {  // old form without process name or time: [ERROR] RUNTIME(8532)message
    if (i + 1 < s.size() && s[i + 1] == ':') return malformed(out, "no process name");
    out.shape = PlogShape::no_time;
    out.message = trim(s.substr(i + 1));
    return PlogResult::parsed;
  }
  if (s[i] != ',') return malformed(out, "bad pid");
  ++i;
  size_t name_end = s.find("):", i);
  if (name_end == sv::npos || name_end - i > 256) return malformed(out, "header breaks off");
  sv name = s.substr(i, name_end - i);
  // MindSpore's own log: [ERROR] DEVICE(pid,hex-thread,name) is not a CANN plog line.
  size_t comma = name.find(',');
  if (comma != sv::npos) {
    bool hex = comma > 0;
    for (size_t k = 0; k < comma; ++k) {
      char c = name[k];
      if (!(is_digit(c) || (c >= 'a' && c <= 'f'))) hex = false;
    }
    if (hex) return PlogResult::not_plog;
  }
  out.process_name = trim_left(name);
  i = name_end + 2;
  // Device-side IMP writes one blank before the time: `IMP(-2,IMP): 2024-12-04-08:21:54.994.714`.
  if (i + 1 < s.size() && s[i] == ' ' && is_digit(s[i + 1])) ++i;
  // time; a documentation page elides it (`RUNTIME(1,python3): ... [a.cc:1]1 F:msg`):
  // the record is read without a time rather than dropped, and no time is made up for it.
  bool elided = s.substr(i, 5) == " ... ";
  if (elided) {
    i += 5;
  } else {
    size_t used = parse_plog_time(s.substr(i), out.time, out.time_separator);
    if (used == 0) return malformed(out, i >= s.size() ? "header breaks off" : "bad time");
    out.time_text = s.substr(i, used);
    out.has_time = true;
    i += used;
    if (i >= s.size()) return malformed(out, "header breaks off after the time");
    if (s[i] != ' ') return malformed(out, "no blank after the time");
    ++i;
  }
  sv body = trim_right(s.substr(i));
  if (body.empty()) return malformed(out, "header breaks off after the time");
  if (is_digit(body[0])) {
    if (parse_tsch_body(body, out)) return PlogResult::parsed;
    return malformed(out, "bad firmware line");
  }
  size_t end = 0;
  // HCCL's init trace puts its stage before the file marker: `[status:init] [hcom.cc:194]`.
  if (body.substr(0, 8) == "[status:") {
    size_t close = body.find("] [", 8);
    if (close != sv::npos && close < 40) {
      sv rest = body.substr(close + 2);
      if (file_marker(rest, end, out)) {
        parse_after_marker(out.module, rest.substr(end), out);
        return PlogResult::parsed;
      }
    }
  }
  if (file_marker(body, end, out)) {
    parse_after_marker(out.module, body.substr(end), out);
    return PlogResult::parsed;
  }
  if (body.substr(0, 8) == "[ascend]" && parse_drv_tags(body, out)) return PlogResult::parsed;
  if (elided) {  // the elision took the file marker too: `ASCENDCL(1,python3): ... F:msg`
    out.shape = PlogShape::plain;
    split_function(body, out);
    return PlogResult::parsed;
  }
  if (body[0] == '[' && body.find(']') == sv::npos) return malformed(out, "file marker breaks off");
  return malformed(out, "no file marker");
}

namespace {

// `path:N:` or `path:` directly before '[': the grep prefixes (parsers/common/line_prefix).
bool grep_prefix(sv s, size_t& at, PlogPrefix& style) {
  sv file;
  uint64_t number = 0;
  bool context = false;
  size_t n = grep_prefix_length(s, file, number, context);
  if (n == 0 || n >= s.size() || s[n] != '[') return false;
  at = n;
  style = !file.empty() && number > 0 ? PlogPrefix::grep_n : PlogPrefix::grep_h;
  return true;
}

PlogResult try_at(sv text, size_t at, PlogPrefix style, PlogLine& out) {
  out = PlogLine{};
  PlogResult r = parse_plog_at(text.substr(at), out);
  if (r != PlogResult::not_plog) {
    out.prefix = text.substr(0, at);
    out.prefix_style = style;
    bool context = false;
    if (at > 0) grep_prefix_length(out.prefix, out.origin_file, out.origin_line, context);
  }
  return r;
}

}  // namespace

PlogResult parse_plog_line(sv text, PlogLine& out) {
  if (!text.empty() && text[0] == '[') {
    PlogResult r = try_at(text, 0, PlogPrefix::none, out);
    if (r != PlogResult::not_plog) return r;
  }
  if (text.substr(0, 4) == "\xEF\xBB\xBF[") {  // a UTF-8 byte-order mark on the first line
    PlogResult r = try_at(text, 3, PlogPrefix::none, out);
    if (r != PlogResult::not_plog) return r;
  }
  size_t ws = 0;
  while (ws < text.size() && (text[ws] == ' ' || text[ws] == '\t')) ++ws;
  if (ws > 0 && ws < text.size() && text[ws] == '[') {
    PlogResult r = try_at(text, ws, PlogPrefix::whitespace, out);
    if (r != PlogResult::not_plog) return r;
  }
  size_t at;
  PlogPrefix style;
  if (grep_prefix(text, at, style)) {
    PlogResult r = try_at(text, at, style, out);
    if (r != PlogResult::not_plog) return r;
  }
  // Launcher, container and kubectl prefixes (worker-3: , [pod/x/c] , a docker time).
  LinePrefix lp = split_line_prefix(text, {.grep = true, .container = true, .launcher = true,
                                           .logger = false});
  if (lp.body.size() < text.size() && !lp.body.empty() && lp.body[0] == '[') {
    size_t off = static_cast<size_t>(lp.body.data() - text.data());
    PlogResult r = try_at(text, off, PlogPrefix::embedded, out);
    if (r != PlogResult::not_plog) return r;
  }
  // Anywhere in the first 512 bytes: "[LEVEL] MODULE(" after another program's prefix.
  size_t limit = text.size() < 512 ? text.size() : 512;
  for (size_t k = 1; k + 3 < limit; ++k) {
    const void* hit = std::memchr(text.data() + k, '[', limit - k);
    if (!hit) break;
    k = static_cast<size_t>(static_cast<const char*>(hit) - text.data());
    if (text[k + 1] < 'A' || text[k + 1] > 'Z') continue;
    PlogResult r = try_at(text, k, PlogPrefix::embedded, out);
    if (r == PlogResult::parsed) return r;  // a broken header inside prose is not counted
  }
  out = PlogLine{};
  return PlogResult::not_plog;
}

PlogResult PlogDialect::parse(sv text, PlogLine& out) {
  if (locked_) {
    size_t at = sv::npos;
    PlogPrefix style = prefix_;
    if (prefix_ == PlogPrefix::none) {
      at = 0;
    } else if (prefix_ == PlogPrefix::grep_n || prefix_ == PlogPrefix::grep_h) {
      PlogPrefix got;
      if (grep_prefix(text, at, got) && got != prefix_) at = sv::npos;
    } else if (prefix_ == PlogPrefix::whitespace) {
      size_t ws = 0;
      while (ws < text.size() && (text[ws] == ' ' || text[ws] == '\t')) ++ws;
      at = ws;
    }
    if (at != sv::npos && at < text.size() && text[at] == '[') {
      PlogResult r = try_at(text, at, style, out);
      if (r == PlogResult::parsed && out.time_separator == time_sep_) return r;
      if (r == PlogResult::malformed) return r;
    }
    PlogResult r = parse_plog_line(text, out);
    if (r == PlogResult::parsed) ++off_variant_;
    return r;
  }
  PlogResult r = parse_plog_line(text, out);
  if (r == PlogResult::parsed && out.has_time && out.shape != PlogShape::no_time &&
      out.shape != PlogShape::awatchdog) {  // a line without (or with an elided) time locks nothing
    locked_ = true;
    prefix_ = out.prefix_style == PlogPrefix::embedded ? PlogPrefix::embedded : out.prefix_style;
    time_sep_ = out.time_separator;
  }
  return r;
}

std::string_view plog_signature_text(const PlogLine& p) {
  const char* end = p.message.data() + p.message.size();
  if (p.time_text.empty() || p.message.data() == nullptr) return p.message;
  const char* from = p.time_text.data() + p.time_text.size();
  if (from > p.message.data() || p.message.data() - from > 4096) return p.message;
  while (from < p.message.data() && *from == ' ') ++from;
  return {from, static_cast<size_t>(end - from)};
}

}  // namespace triage
