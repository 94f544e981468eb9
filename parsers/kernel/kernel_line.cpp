#include "parsers/kernel/kernel_line.h"
#include "model/strings.h"

#include "knowledge/month_names.h"
#include "parsers/common/line_prefix.h"

#include <cstring>

namespace triage {

std::string_view to_string(KernelLineShape s) {
  switch (s) {
    case KernelLineShape::none: return "none";
    case KernelLineShape::dmesg_raw: return "dmesg_raw";
    case KernelLineShape::dmesg_human: return "dmesg_human";
    case KernelLineShape::bracket_local: return "bracket_local";
    case KernelLineShape::syslog_short: return "syslog_short";
    case KernelLineShape::syslog_precise: return "syslog_precise";
    case KernelLineShape::syslog_iso: return "syslog_iso";
    case KernelLineShape::syslog_no_time: return "syslog_no_time";
    case KernelLineShape::journal_marker: return "journal_marker";
    case KernelLineShape::no_time: return "no_time";
  }
  return "none";
}

namespace {
using sv = std::string_view;

inline bool is_lower_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f'); }

bool digits_at(sv s, size_t i, size_t n, int& v) {
  if (i + n > s.size()) return false;
  v = 0;
  for (size_t k = 0; k < n; ++k) {
    if (!is_digit(s[i + k])) return false;
    v = v * 10 + (s[i + k] - '0');
  }
  return true;
}

// dmesg -T prints the C names (knowledge/month-names.tsv).
int month_from(sv m) { return builtin_month_names().c_name(m); }

bool is_weekday(sv w) {
  static constexpr const char* kDays[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
  for (auto d : kDays)
    if (w == d) return true;
  return false;
}

// HH:MM:SS at s[i]
bool hms(sv s, size_t i, CivilTime& t) {
  return digits_at(s, i, 2, t.hour) && i + 2 < s.size() && s[i + 2] == ':' &&
         digits_at(s, i + 3, 2, t.minute) && i + 5 < s.size() && s[i + 5] == ':' &&
         digits_at(s, i + 6, 2, t.second);
}

// Fraction ".ffffff" (1..9 digits) at s[i]; returns the end.
size_t fraction(sv s, size_t i, int& micros) {
  micros = 0;
  if (i >= s.size() || s[i] != '.') return i;
  size_t k = i + 1, n = 0;
  while (k < s.size() && is_digit(s[k])) {
    if (n < 6) micros = micros * 10 + (s[k] - '0');
    ++k, ++n;
  }
  if (n == 0) return i;
  for (; n < 6; ++n) micros *= 10;
  return k;
}

// "[ 2081.843939]" at s[0]: seconds since boot; returns the end or 0.
size_t uptime_bracket(sv s, double& up) {
  if (s.empty() || s[0] != '[') return 0;
  size_t i = 1;
  while (i < s.size() && s[i] == ' ') ++i;
  size_t start = i;
  uint64_t whole = 0;
  while (i < s.size() && is_digit(s[i]) && i - start < 12) whole = whole * 10 + (s[i++] - '0');
  if (i == start || i >= s.size() || s[i] != '.') return 0;
  ++i;
  size_t fs = i;
  uint64_t frac = 0, scale = 1;
  while (i < s.size() && is_digit(s[i]) && i - fs < 9) frac = frac * 10 + (s[i++] - '0'), scale *= 10;
  if (i == fs || i >= s.size() || s[i] != ']') return 0;
  up = static_cast<double>(whole) + static_cast<double>(frac) / static_cast<double>(scale);
  return i + 1;
}

// Caller id after the uptime: "[T28699]" / "[C3]".
size_t caller_id(sv s) {
  if (s.size() < 4 || s[0] != '[' || (s[1] != 'T' && s[1] != 'C')) return 0;
  size_t i = 2;
  while (i < s.size() && is_digit(s[i])) ++i;
  return (i > 2 && i < s.size() && s[i] == ']') ? i + 1 : 0;
}


// "host ident[pid]: msg" after a syslog time.
bool host_ident(sv rest, KernelLine& out) {
  size_t sp = rest.find(' ');
  if (sp == sv::npos || sp == 0) return false;
  out.host = rest.substr(0, sp);
  sv r = rest.substr(sp + 1);
  size_t colon = r.find(": ");
  size_t colon_end = colon == sv::npos ? sv::npos : colon + 2;
  if (colon == sv::npos && !r.empty() && r.back() == ':') colon = r.size() - 1, colon_end = r.size();
  if (colon == sv::npos) return false;
  sv ident = r.substr(0, colon);
  if (ident.find(' ') != sv::npos) {
    // "kern.info kernel:" (facility.level before the ident) or a message without an ident
    size_t sp2 = ident.find(' ');
    sv first = ident.substr(0, sp2);
    if (first.find('.') == sv::npos || ident.substr(sp2 + 1).find(' ') != sv::npos) return false;
    out.priority = first;
    ident = ident.substr(sp2 + 1);
  }
  size_t br = ident.find('[');
  out.ident = br == sv::npos ? ident : ident.substr(0, br);
  if (br != sv::npos && ident.back() == ']') {
    sv pid = ident.substr(br + 1, ident.size() - br - 2);
    bool digits = !pid.empty() && pid.size() <= 10;
    for (char c : pid) digits = digits && is_digit(c);
    if (digits) out.ident_pid = pid;
  }
  out.message = trim_right(r.substr(colon_end));
  return !out.ident.empty();
}

// A printk uptime at the start of a syslog kernel message: "[ 123.456] msg".
void strip_uptime(KernelLine& out) {
  double up;
  size_t e = uptime_bracket(out.message, up);
  if (e == 0) return;
  out.uptime_s = up;
  out.has_uptime = true;
  sv rest = out.message.substr(e);
  size_t c = caller_id(rest);
  out.message = trim_left(rest.substr(c));
}

// "Mar  1 12:00:00[.ffffff] host ident: msg", also with a localized month ("8月 17 ...",
// journalctl in a zh_CN locale; knowledge/month-names.tsv).
KernelResult syslog_short(sv s, KernelLine& out) {
  size_t mlen = 0;
  int month = builtin_month_names().at(s, mlen);
  if (month == 0 || s.size() < mlen + 13 || s[mlen] != ' ') return KernelResult::not_kernel;
  size_t start = s[0] == ' ' ? 1 : 0;  // glibc's blank before a one-digit localized month
  out.month_localized = month_from(s.substr(start, mlen - start)) == 0;
  size_t i = mlen + 1;
  if (s[i] == ' ') ++i;
  int day = 0;
  size_t d0 = i;
  while (i < s.size() && is_digit(s[i]) && i - d0 < 2) day = day * 10 + (s[i++] - '0');
  if (i == d0 || i >= s.size() || s[i] != ' ') return KernelResult::not_kernel;
  ++i;
  CivilTime t;
  if (!hms(s, i, t)) return KernelResult::not_kernel;
  size_t end = fraction(s, i + 8, t.micros);
  t.year = 2000;  // placeholder, estimated in finalize
  t.month = month;
  t.day = day;
  if (end >= s.size() || s[end] != ' ') return KernelResult::not_kernel;
  out.time_text = s.substr(start, end - start);
  out.civil = t;
  out.civil_valid = t.valid() || (month == 2 && day == 29);
  out.year_missing = true;
  out.shape = end > i + 8 ? KernelLineShape::syslog_precise : KernelLineShape::syslog_short;
  sv rest = s.substr(end + 1);
  if (rest.substr(0, 8) == "[ascend]") {  // a driver message pasted without host and ident
    out.ident = "kernel";
    out.message = trim_right(rest);
    return KernelResult::parsed;
  }
  if (!host_ident(rest, out)) {
    out.malformed_reason = "no host and ident after the time";
    return KernelResult::malformed;
  }
  strip_uptime(out);
  return KernelResult::parsed;
}

// "2026-03-01T12:00:00[.ffffff](+08:00|+0800|Z) host ident: msg"
KernelResult syslog_iso(sv s, KernelLine& out) {
  CivilTime t;
  if (s.size() < 20 || !digits_at(s, 0, 4, t.year) || s[4] != '-' || !digits_at(s, 5, 2, t.month) ||
      s[7] != '-' || !digits_at(s, 8, 2, t.day) || s[10] != 'T' || !hms(s, 11, t))
    return KernelResult::not_kernel;
  size_t i = fraction(s, 19, t.micros);
  if (i < s.size() && s[i] == 'Z') {
    out.has_offset = true, out.offset_seconds = 0, ++i;
  } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    int sign = s[i] == '-' ? -1 : 1, h, m;
    size_t k = i + 1;
    if (!digits_at(s, k, 2, h)) return KernelResult::not_kernel;
    k += 2;
    if (k < s.size() && s[k] == ':') ++k;
    if (!digits_at(s, k, 2, m)) return KernelResult::not_kernel;
    out.has_offset = true;
    out.offset_seconds = sign * (h * 3600 + m * 60);
    i = k + 2;
  }
  if (i >= s.size() || s[i] != ' ' || !t.valid()) return KernelResult::not_kernel;
  out.time_text = s.substr(0, i);
  out.civil = t;
  out.civil_valid = true;
  out.shape = KernelLineShape::syslog_iso;
  if (!host_ident(s.substr(i + 1), out)) {
    out.malformed_reason = "no host and ident after the time";
    return KernelResult::malformed;
  }
  strip_uptime(out);
  return KernelResult::parsed;
}

// "[Tue Mar  1 12:00:00 2026] msg"
KernelResult dmesg_human(sv s, KernelLine& out) {
  if (s.size() < 26 || s[0] != '[' || !is_weekday(s.substr(1, 3)) || s[4] != ' ')
    return KernelResult::not_kernel;
  int month = month_from(s.substr(5, 3));
  if (month == 0 || s[8] != ' ') return KernelResult::not_kernel;
  size_t i = 9;
  if (s[i] == ' ') ++i;
  int day = 0;
  size_t d0 = i;
  while (i < s.size() && is_digit(s[i]) && i - d0 < 2) day = day * 10 + (s[i++] - '0');
  if (i == d0 || i >= s.size() || s[i] != ' ') return KernelResult::not_kernel;
  CivilTime t;
  if (!hms(s, i + 1, t)) return KernelResult::not_kernel;
  i += 9;
  if (i >= s.size() || s[i] != ' ' || !digits_at(s, i + 1, 4, t.year) || i + 5 >= s.size() ||
      s[i + 5] != ']')
    return KernelResult::not_kernel;
  t.month = month;
  t.day = day;
  out.time_text = s.substr(1, i + 4);
  out.civil = t;
  out.civil_valid = t.valid();
  out.shape = KernelLineShape::dmesg_human;
  out.message = trim_right(trim_left(s.substr(i + 6)));
  return KernelResult::parsed;
}

// "[2025-04-16-03:08:13.818489] msg"
KernelResult bracket_local(sv s, KernelLine& out) {
  CivilTime t;
  if (s.size() < 21 || s[0] != '[' || !digits_at(s, 1, 4, t.year) || s[5] != '-' ||
      !digits_at(s, 6, 2, t.month) || s[8] != '-' || !digits_at(s, 9, 2, t.day) ||
      (s[11] != '-' && s[11] != ' ') || !hms(s, 12, t))
    return KernelResult::not_kernel;
  size_t i = fraction(s, 20, t.micros);
  if (i >= s.size() || s[i] != ']') return KernelResult::not_kernel;
  out.time_text = s.substr(1, i - 1);
  out.civil = t;
  out.civil_valid = t.valid();
  out.shape = KernelLineShape::bracket_local;
  out.message = trim_right(trim_left(s.substr(i + 1)));
  return KernelResult::parsed;
}

KernelResult parse_at(sv s, KernelLine& out) {
  if (s.empty()) return KernelResult::not_kernel;
  if (s[0] == '<') {  // dmesg -r: <6>[ 1.234] msg
    size_t close = s.find('>');
    if (close != sv::npos && close <= 4 && close + 1 < s.size() && s[close + 1] == '[') {
      int pri = 0;
      for (size_t k = 1; k < close; ++k) {
        if (!is_digit(s[k])) return KernelResult::not_kernel;
        pri = pri * 10 + (s[k] - '0');
      }
      KernelResult r = parse_at(s.substr(close + 1), out);
      if (r == KernelResult::parsed) out.syslog_pri = pri;
      return r;
    }
    return KernelResult::not_kernel;
  }
  if (s[0] == '[') {
    double up;
    size_t e = uptime_bracket(s, up);
    if (e) {
      out.uptime_s = up;
      out.has_uptime = true;
      out.time_text = s.substr(0, e);
      sv rest = s.substr(e);
      rest = rest.substr(caller_id(rest));
      out.message = trim_right(trim_left(rest));
      out.shape = KernelLineShape::dmesg_raw;
      return KernelResult::parsed;
    }
    if (dmesg_human(s, out) == KernelResult::parsed) return KernelResult::parsed;
    if (bracket_local(s, out) == KernelResult::parsed) return KernelResult::parsed;
    // "[  452.96" broken off: a damaged dmesg line
    size_t i = 1;
    while (i < s.size() && s[i] == ' ') ++i;
    size_t d = i;
    while (i < s.size() && (is_digit(s[i]) || s[i] == '.')) ++i;
    if (i > d && (i == s.size() || (s[i] != ']' && s[i] != ' '))) {
      out.malformed_reason = "uptime breaks off";
      return KernelResult::malformed;
    }
    // A driver message pasted without its time: "[ascend] [devmm] [ERROR] ...".
    if (s.substr(0, 8) == "[ascend]" || is_fault_manager(s)) {
      out.shape = KernelLineShape::no_time;
      out.message = trim_right(s);
      return KernelResult::parsed;
    }
    return KernelResult::not_kernel;
  }
  if (s.size() > 3 && s[0] == '-' && s[1] == '-' && s[2] == ' ') {
    sv r = trim_right(s);
    if (r.size() >= 6 && r.substr(r.size() - 3) == " --") {
      out.shape = KernelLineShape::journal_marker;
      out.message = r.substr(3, r.size() - 6);
      if (out.message.substr(0, 5) == "Boot ") {
        sv id = out.message.substr(5);
        bool hex = id.size() == 32;
        for (char c : id) hex = hex && is_lower_hex(c);
        if (hex) out.boot_id = id;
      }
      return KernelResult::parsed;
    }
    if (r.find("Logs begin at") != sv::npos || r.find("Journal begins at") != sv::npos ||
        r.find("No entries") != sv::npos) {
      out.shape = KernelLineShape::journal_marker;
      out.message = r.substr(3);
      return KernelResult::parsed;
    }
    return KernelResult::not_kernel;
  }
  {  // any row of knowledge/month-names.tsv may start the line, not only C names
    KernelResult r = syslog_short(s, out);
    if (r != KernelResult::not_kernel) return r;
  }
  if (is_digit(s[0])) {
    KernelResult r = syslog_iso(s, out);
    if (r != KernelResult::not_kernel) return r;
  }
  if (s.substr(0, 7) == "(none) ") {
    if (host_ident(s, out)) {
      out.shape = KernelLineShape::syslog_no_time;
      strip_uptime(out);
      return KernelResult::parsed;
    }
  }
  return KernelResult::not_kernel;
}

}  // namespace

KernelResult parse_kernel_line(sv text, KernelLine& out) {
  out = KernelLine{};
  KernelResult r = parse_at(text, out);
  if (r != KernelResult::not_kernel) return r;
  // grep prefixes: "path:N:[ 1.2] msg" and "path:N[ 1.2] msg" (grep over kbox.txt)
  size_t colon = text.find(':');
  if (colon != sv::npos && colon > 0 && colon <= 1024 && text.substr(0, colon).find(' ') == sv::npos) {
    size_t i = colon + 1, d = i;
    while (i < text.size() && is_digit(text[i])) ++i;
    if (i > d && i < text.size() && text[i] == ':') ++i;
    if (i > d && i < text.size() && text[i] == '[') {
      KernelLine inner;
      KernelResult r2 = parse_at(text.substr(i), inner);
      if (r2 != KernelResult::not_kernel) {
        out = inner;
        out.prefix = text.substr(0, i);
        return r2;
      }
    }
  }
  // The shared prefixes: grep context lines, kubectl, container times, pdsh hosts.
  LinePrefix lp = split_line_prefix(text, {.grep = true, .container = true, .launcher = true,
                                           .logger = false});
  if (lp.body.empty() || lp.body.size() == text.size()) return r;
  KernelLine inner;
  KernelResult r2 = parse_at(lp.body, inner);
  if (r2 == KernelResult::not_kernel) return r;
  out = inner;
  out.prefix = text.substr(0, static_cast<size_t>(lp.body.data() - text.data()));
  return r2;
}

bool parse_ascend_printk(sv msg, AscendPrintkView& out) {
  out = AscendPrintkView{};
  // "[ascend][devmm]": renderers drop the blank between tags
  if (msg.substr(0, 8) != "[ascend]" || (msg.size() > 8 && msg[8] != ' ' && msg[8] != '[')) return false;
  sv s = trim_left(msg.substr(8));
  auto tag = [&](sv& into) {
    if (s.empty() || s[0] != '[') return false;
    size_t close = s.find(']');
    if (close == sv::npos) return false;
    into = s.substr(1, close - 1);
    s = trim_left(s.substr(close + 1));
    return true;
  };
  sv t1;
  if (!tag(t1)) return false;
  if (t1 == "ERROR") {
    out.error_tag = true;
    if (!tag(t1)) return false;
  }
  out.module = t1;
  sv fl;
  bool has_fl = tag(fl);
  if (has_fl && fl == "ERROR") {  // "[ascend] [devmm] [ERROR] ...": the level after the module
    out.error_tag = true;
    has_fl = tag(fl);
  }
  if (has_fl) {
    size_t sp = fl.rfind(' ');
    if (sp != sv::npos && sp + 1 < fl.size() && is_digit(fl[sp + 1])) {
      out.function = fl.substr(0, sp);
      out.line = fl.substr(sp + 1);
    } else {
      out.function = fl;
    }
  }
  if (!s.empty() && s[0] == '<') {
    size_t close = s.find('>');
    if (close != sv::npos) {
      sv who = s.substr(1, close - 1);
      s = trim_left(s.substr(close + 1));
      // comm:pid,tid  |  comm:pid  |  comm:pid:tid (equal ids)
      size_t comma = who.rfind(',');
      sv rest = who;
      if (comma != sv::npos) {
        out.tid = who.substr(comma + 1);
        rest = who.substr(0, comma);
      }
      size_t c = rest.rfind(':');
      if (c != sv::npos) {
        out.pid = rest.substr(c + 1);
        out.comm = rest.substr(0, c);
        if (comma == sv::npos) {
          size_t c2 = out.comm.rfind(':');
          if (c2 != sv::npos && out.comm.substr(c2 + 1) == out.pid) {
            out.tid = out.pid;
            out.comm = out.comm.substr(0, c2);
          }
        }
      } else {
        out.comm = rest;
      }
    }
  }
  // "(k=v; k=v)" tail
  sv body = trim_right(s);
  sv b2 = body;
  while (!b2.empty() && b2.back() == '.') b2.remove_suffix(1);
  if (!b2.empty() && b2.back() == ')') {
    size_t open = b2.rfind('(');
    if (open != sv::npos && b2.substr(open).find('=') != sv::npos) {
      out.values = b2.substr(open + 1, b2.size() - open - 2);
      body = trim_right(b2.substr(0, open));
    }
  }
  out.message = body;
  return true;
}

static int64_t to_int(sv s) {
  int64_t v = 0;
  bool neg = !s.empty() && s[0] == '-';
  for (char c : s.substr(neg ? 1 : 0)) {
    if (c < '0' || c > '9') return v;
    v = v * 10 + (c - '0');
  }
  return neg ? -v : v;
}

static bool numeric(sv s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

AscendPrintk to_fact(const AscendPrintkView& v) {
  AscendPrintk a;
  a.error_tag = v.error_tag;
  a.module = std::string(v.module);
  a.function = std::string(v.function);
  if (numeric(v.line)) a.line = to_int(v.line);
  a.comm = std::string(v.comm);
  if (numeric(v.pid)) a.pid = to_int(v.pid);
  if (numeric(v.tid)) a.tid = to_int(v.tid);
  a.message = std::string(v.message);
  sv vals = v.values;
  // "(k=v; k=v)", in some driver messages "(k=v, k=v)"
  char sep = vals.find(';') == sv::npos && vals.find(", ") != sv::npos ? ',' : ';';
  while (!vals.empty()) {
    size_t semi = vals.find(sep);
    sv item = trim_left(trim_right(vals.substr(0, semi)));
    vals = semi == sv::npos ? sv{} : vals.substr(semi + 1);
    size_t eq = item.find('=');
    if (eq == sv::npos) continue;
    a.values.emplace_back(std::string(trim_right(item.substr(0, eq))),
                          std::string(trim_left(item.substr(eq + 1))));
  }
  return a;
}

bool may_be_module_failure(sv msg) {
  return msg.find(": Unknown symbol ") != sv::npos ||
         msg.find("disagrees about version of symbol") != sv::npos ||
         msg.find("version magic '") != sv::npos ||
         msg.find("module verification failed") != sv::npos ||
         msg.find("Key was rejected by service") != sv::npos ||
         msg.find("loading out-of-tree module taints kernel") != sv::npos;
}

bool parse_module_failure(sv msg, ModuleLoadFailure& out) {
  auto module_before = [&](size_t pos) {
    sv head = msg.substr(0, pos);
    size_t sp = head.rfind(' ');
    return std::string(sp == sv::npos ? head : head.substr(sp + 1));
  };
  auto token_after = [&](size_t pos) {
    sv rest = msg.substr(pos);
    size_t end = rest.find_first_of(" \t");
    return rest.substr(0, end);
  };
  size_t p;
  if ((p = msg.find(": Unknown symbol ")) != sv::npos) {
    out = {};
    out.problem = ModuleLoadProblem::unknown_symbol;
    out.module = module_before(p);
    out.symbol = std::string(token_after(p + 17));
    size_t e = msg.find("(err ", p);
    if (e != sv::npos) {
      sv rest = msg.substr(e + 5);
      out.detail = "err " + std::string(rest.substr(0, rest.find(')')));
    }
    return !out.module.empty();
  }
  if ((p = msg.find(": disagrees about version of symbol ")) != sv::npos) {
    out = {};
    out.problem = ModuleLoadProblem::symbol_version;
    out.module = module_before(p);
    out.symbol = std::string(token_after(p + 36));
    return !out.module.empty();
  }
  if ((p = msg.find(": version magic '")) != sv::npos) {
    out = {};
    out.problem = ModuleLoadProblem::version_magic;
    out.module = module_before(p);
    sv rest = msg.substr(p + 17);
    size_t q = rest.find("' should be '");
    if (q != sv::npos) {
      sv want = rest.substr(q + 13);
      out.detail = "have '" + std::string(rest.substr(0, q)) + "' want '" +
                   std::string(want.substr(0, want.rfind('\''))) + "'";
    } else {
      out.detail = std::string(rest);
    }
    return !out.module.empty();
  }
  if ((p = msg.find(": module verification failed")) != sv::npos) {
    out = {};
    out.problem = ModuleLoadProblem::verification_failed;
    out.module = module_before(p);
    out.detail = std::string(msg.substr(p + 2));
    return !out.module.empty();
  }
  if ((p = msg.find("Key was rejected by service")) != sv::npos) {
    out = {};
    out.problem = ModuleLoadProblem::key_rejected;
    size_t q = msg.find("could not insert '");
    if (q != sv::npos) {
      sv rest = msg.substr(q + 18);
      out.module = std::string(rest.substr(0, rest.find('\'')));
    }
    out.detail = std::string(msg.substr(0, std::min<size_t>(msg.size(), 200)));
    return true;
  }
  if ((p = msg.find(": loading out-of-tree module taints kernel")) != sv::npos) {
    out = {};
    out.problem = ModuleLoadProblem::out_of_tree_taint;
    out.module = module_before(p);
    return !out.module.empty();
  }
  return false;
}

std::string dashed_boot_id(sv id) {
  if (id.size() != 32) return std::string(id);
  std::string s;
  s.reserve(36);
  for (size_t i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) s += '-';
    char c = id[i];
    s += (c >= 'A' && c <= 'F') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return s;
}

}  // namespace triage
