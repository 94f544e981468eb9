#include "parsers/job/job_lines.h"
#include "model/strings.h"

#include <cctype>

namespace triage::joblines {

namespace {

using sv = std::string_view;
constexpr size_t npos = sv::npos;

bool starts_with(sv s, sv p) { return s.substr(0, p.size()) == p; }
bool is_blank(char c) { return c == ' ' || c == '\t'; }


// A (possibly negative) decimal number at pos; "" when none.
sv number_at(sv s, size_t pos) {
  size_t k = pos;
  if (k < s.size() && s[k] == '-') ++k;
  size_t d = k;
  while (k < s.size() && is_digit(s[k]) && k - d < 12) ++k;
  return k > d ? s.substr(pos, k - pos) : sv{};
}

std::optional<int> small_int(sv s) {
  if (s.empty() || s.size() > 6) return std::nullopt;
  int v = 0;
  for (char c : s) {
    if (!is_digit(c)) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

// `device 0`, `device is 0`, `device=0`, `device id 0`: the first device number in a message.
std::optional<int> device_in(sv s) {
  for (size_t at = s.find("device"); at != npos; at = s.find("device", at + 1)) {
    sv rest = s.substr(at + 6);
    for (sv sep : {" is ", " id ", "=", " ", "Id=", "_id=", "_id:", "_id "})
      if (starts_with(rest, sep)) {
        sv n = number_at(rest, sep.size());
        if (!n.empty() && n[0] != '-') return small_int(n);
      }
  }
  return std::nullopt;
}

// The file name of a path (`/x/lib/libtorch_npu.so` -> `libtorch_npu.so`).
sv basename(sv path) {
  size_t slash = path.rfind('/');
  return slash == npos ? path : path.substr(slash + 1);
}

// The word ending just before `end` (back to a blank or the start), quotes removed.
sv word_before(sv s, size_t end) {
  size_t b = end;
  while (b > 0 && !is_blank(s[b - 1])) --b;
  sv w = s.substr(b, end - b);
  while (!w.empty() && (w.front() == '\'' || w.front() == '"')) w.remove_prefix(1);
  while (!w.empty() && (w.back() == '\'' || w.back() == '"')) w.remove_suffix(1);
  return w;
}

// A C/C++ symbol as the loader prints it.
sv symbol_at(sv s, size_t pos) {
  size_t k = pos;
  while (k < s.size() && (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '_' ||
                          s[k] == '.' || s[k] == '$' || s[k] == '@'))
    ++k;
  return s.substr(pos, k - pos);
}

// `(NPU 0; 60.96 GiB total capacity; 59.36 GiB already allocated; ...; 1.32 GiB free; ...)`
void oom_figures(sv inner, JobLine& j) {
  if (starts_with(inner, "NPU ")) {
    size_t semi = inner.find(';');
    j.device = small_int(inner.substr(4, (semi == npos ? inner.size() : semi) - 4));
  }
  while (!inner.empty()) {
    size_t semi = inner.find(';');
    sv part = trim(inner.substr(0, semi));
    inner = semi == npos ? sv{} : inner.substr(semi + 1);
    auto figure = [&](sv suffix, sv& into) {
      if (part.size() > suffix.size() && part.substr(part.size() - suffix.size()) == suffix)
        into = trim(part.substr(0, part.size() - suffix.size()));
      else if (size_t at = part.find(suffix); at != npos && at > 0 && suffix == " reserved")
        into = trim(part.substr(0, at));
    };
    figure(" total capacity", j.capacity);
    figure(" already allocated", j.allocated);
    figure(" free", j.free);
    figure(" reserved", j.reserved);
  }
}

// The library a loader failure was loading for: `Fail to open library: /x/liba.so with error:`
// (Paddle), `Load dynamic library: liba.so.2 failed.` (MindSpore).
sv loaded_by(sv body) {
  for (sv marker : {"Fail to open library: ", "Load dynamic library: "}) {
    size_t at = body.find(marker);
    if (at == npos) continue;
    sv rest = body.substr(at + marker.size());
    size_t end = rest.find(' ');
    sv path = rest.substr(0, end);
    while (!path.empty() && (path.back() == '.' || path.back() == ',')) path.remove_suffix(1);
    return basename(path);
  }
  return {};
}

}  // namespace

std::optional<JobLine> parse_job_line(sv body) {
  JobLine j;
  if (size_t at = body.find("NPU out of memory. Tried to allocate "); at != npos) {
    j.kind = JobEventKind::npu_out_of_memory;
    sv rest = body.substr(at + 37);
    size_t open = rest.find(" (");
    j.tried = trim(rest.substr(0, open));
    if (open != npos) {
      size_t close = rest.find(')', open);
      j.source = rest.substr(open + 2, (close == npos ? rest.size() : close) - open - 2);
      oom_figures(j.source, j);
    }
    return j;
  }
  if (size_t at = body.find(": undefined symbol: "); at != npos) {
    j.kind = JobEventKind::undefined_symbol;
    j.library = basename(word_before(body, at));
    j.symbol = symbol_at(body, at + 20);
    j.loaded_by = loaded_by(body);
    return j;
  }
  if (size_t at = body.find(": cannot open shared object file"); at != npos) {
    j.kind = JobEventKind::library_missing;
    j.library = basename(word_before(body, at));
    j.loaded_by = loaded_by(body);
    return j;
  }
  if (size_t at = body.find("module '"); at != npos) {  // a native module lacks an attribute
    size_t q = body.find('\'', at + 8);
    size_t has = q == npos ? npos : body.find("' has no attribute '", q);
    if (has == q && q != npos) {
      j.kind = JobEventKind::undefined_symbol;
      j.library = body.substr(at + 8, q - at - 8);
      size_t b = q + 20, e = body.find('\'', b);
      if (e != npos) {
        j.symbol = body.substr(b, e - b);
        return j;
      }
    }
  }
  if (starts_with(trim(body), "Exception raised from ")) {
    sv t = trim(body).substr(22);
    j.kind = JobEventKind::c10_raised_from;
    size_t at = t.find(" at ");
    j.call = t.substr(0, at);
    if (at != npos) {
      sv loc = t.substr(at + 4);
      j.source = loc.substr(0, loc.find(" ("));
    }
    return j;
  }
  if (size_t at = body.find("failed, errorCode = "); at != npos) {  // ACL samples
    j.kind = JobEventKind::acl_call_failed;
    j.code = number_at(body, at + 20);
    sv head = body;
    if (starts_with(trim(head), "[ERROR]")) head = trim(trim(head).substr(7));
    j.call = trim(head.substr(0, head.find(" failed")));
    j.device = device_in(j.call);
    if (!j.code.empty()) return j;
  }
  if (body.find("dcmi") != npos || body.find("DCMI") != npos) {
    for (sv marker : {"ret is ", "error code: ", "ret = ", "ret:"}) {
      size_t at = body.find(marker);
      if (at == npos) continue;
      j.kind = JobEventKind::dcmi_error;
      j.code = number_at(body, at + marker.size());
      j.call = trim(body.substr(0, body.find(" failed")));
      j.device = device_in(body);
      if (!j.code.empty()) return j;
    }
  }
  sv t = trim(body);
  if ((starts_with(t, "Drv") || starts_with(t, "drv") || starts_with(t, "dsmi_") ||
       starts_with(t, "halGet")) &&
      t.find(" failed") != npos) {
    j.kind = JobEventKind::driver_error;
    j.call = t.substr(0, t.find(" failed"));
    for (sv marker : {"ret=", "ret = ", "ret:", "ret is "})
      if (size_t at = t.find(marker); at != npos) j.code = number_at(t, at + marker.size());
    j.device = device_in(t);
    return j;
  }
  // A runtime / ACL return code in an application's own words: `aclrtSynchronizeStream
  // failed: 507018`, `error_code=507018`. Only six-digit codes of the ACL ranges (1xxxxx,
  // 2xxxxx, 5xxxxx): a bare number after "failed:" is too common otherwise.
  for (sv marker : {" failed: ", "error_code="}) {
    size_t at = t.find(marker);
    if (at == npos) continue;
    sv code = number_at(t, at + marker.size());
    if (code.size() != 6 || (code[0] != '1' && code[0] != '2' && code[0] != '5')) continue;
    size_t end = at + marker.size() + 6;
    if (end < t.size() && t[end] != ' ' && t[end] != ',' && t[end] != ')' && t[end] != '.') continue;
    j.kind = JobEventKind::acl_call_failed;
    j.code = code;
    if (marker == " failed: ") {
      sv head = t.substr(0, at);
      size_t sp = head.find_last_of(" :");
      j.call = sp == npos ? head : head.substr(sp + 1);
    }
    j.device = device_in(t);
    return j;
  }
  return std::nullopt;
}

bool is_c10_frame(sv body) {
  sv t = trim(body);
  if (!starts_with(t, "frame #")) return false;
  size_t k = 7;
  while (k < t.size() && is_digit(t[k])) ++k;
  return k > 7 && k < t.size() && t[k] == ':';
}

std::optional<int> device_named(sv text) { return device_in(text); }

sv c10_frame_library(sv body) {
  size_t in = body.rfind(" in ");
  if (in == npos || body.back() != ')') return {};
  sv path = body.substr(in + 4, body.size() - in - 5);
  return path.find(".so") == npos ? sv{} : basename(path);
}

std::optional<int64_t> glog_pid(sv body) {
  // `I0708 15:01:14.136582 4321 init.cc:236] `
  if (body.size() < 30 || (body[0] != 'I' && body[0] != 'W' && body[0] != 'E' && body[0] != 'F'))
    return std::nullopt;
  for (size_t i = 1; i < 5; ++i)
    if (!is_digit(body[i])) return std::nullopt;
  if (body[5] != ' ' || body[8] != ':' || body[11] != ':' || body[14] != '.') return std::nullopt;
  size_t k = 15;
  while (k < body.size() && is_digit(body[k])) ++k;
  while (k < body.size() && body[k] == ' ') ++k;
  sv n = number_at(body, k);
  if (n.empty() || n[0] == '-' || k + n.size() >= body.size() || body[k + n.size()] != ' ')
    return std::nullopt;
  int64_t v = 0;
  for (char c : n) v = v * 10 + (c - '0');
  return v;
}

std::optional<AclSampleLine> parse_acl_sample_line(sv body) {
  for (sv level : {"[INFO]  ", "[ERROR]  ", "[WARNING]  ", "[WARN]  ", "[DEBUG]  "}) {
    if (!starts_with(body, level)) continue;
    AclSampleLine a;
    a.level = body.substr(1, level.size() - 4);
    a.message = trim(body.substr(level.size()));
    if (a.message.empty()) return std::nullopt;
    a.device = device_in(a.message);
    return a;
  }
  return std::nullopt;
}

std::optional<HwlogLine> parse_hwlog_line(sv body) {
  if (body.size() < 40 || body[0] != '[') return std::nullopt;
  size_t close = body.find(']');
  if (close == npos || close > 10) return std::nullopt;  // `[EXCEPTION] ` is the longest level
  HwlogLine h;
  h.level = body.substr(1, close - 1);
  for (char c : h.level)
    if (c < 'A' || c > 'Z') return std::nullopt;
  size_t k = close + 1;
  while (k < body.size() && body[k] == ' ') ++k;
  static constexpr char kShape[] = "dddd/dd/dd dd:dd:dd";
  if (k + 19 > body.size()) return std::nullopt;
  for (size_t i = 0; i < 19; ++i)
    if (kShape[i] == 'd' ? !is_digit(body[k + i]) : body[k + i] != kShape[i]) return std::nullopt;
  size_t e = k + 19;
  if (e < body.size() && body[e] == '.')
    for (++e; e < body.size() && is_digit(body[e]);) ++e;
  h.time_text = body.substr(k, e - k);
  auto field = [&](sv& into) {
    while (e < body.size() && body[e] == ' ') ++e;
    size_t b = e;
    while (e < body.size() && body[e] != ' ') ++e;
    into = body.substr(b, e - b);
  };
  field(h.goroutine);
  field(h.source);
  if (h.goroutine.empty() || !is_digit(h.goroutine[0]) || h.source.find(':') == npos)
    return std::nullopt;
  h.message = trim(body.substr(e));
  return h;
}

std::optional<HwlogLine> parse_mindie_line(sv body) {
  // `[YYYY-MM-DD HH:MM:SS.f...] [level] [tid] [file:line] text`
  static constexpr char kShape[] = "[dddd-dd-dd dd:dd:dd";
  if (body.size() < 40) return std::nullopt;
  for (size_t i = 0; i < 20; ++i)
    if (kShape[i] == 'd' ? !is_digit(body[i]) : body[i] != kShape[i]) return std::nullopt;
  size_t close = body.find("] [", 20);
  if (close == npos || close > 32) return std::nullopt;
  HwlogLine h;
  h.time_text = body.substr(1, close - 1);
  size_t k = close + 2;
  auto bracket = [&](sv& into) {
    if (k >= body.size() || body[k] != '[') return false;
    size_t end = body.find(']', k);
    if (end == npos || end - k > 64) return false;
    into = body.substr(k + 1, end - k - 1);
    k = end + 1;
    while (k < body.size() && body[k] == ' ') ++k;
    return true;
  };
  if (!bracket(h.level) || !bracket(h.goroutine) || !bracket(h.source)) return std::nullopt;
  for (char c : h.level)
    if (c < 'a' || c > 'z') return std::nullopt;
  if (h.goroutine.empty() || number_at(h.goroutine, 0).size() != h.goroutine.size() ||
      h.source.find(':') == npos)
    return std::nullopt;
  h.message = trim(body.substr(k));
  return h;
}

std::optional<MindSporeLine> parse_mindspore_line(sv body) {
  if (body.size() < 40 || body[0] != '[') return std::nullopt;
  size_t close = body.find("] ");
  if (close == npos || close > 10) return std::nullopt;  // `[EXCEPTION] ` is the longest level
  MindSporeLine m;
  m.level = body.substr(1, close - 1);
  size_t open = body.find('(', close);
  if (open == npos || open > close + 40) return std::nullopt;
  m.module = body.substr(close + 2, open - close - 2);
  for (char c : m.module)
    if (!((c >= 'A' && c <= 'Z') || is_digit(c) || c == '_')) return std::nullopt;
  size_t end = body.find(')', open);
  if (m.module.empty() || end == npos || end + 1 >= body.size() || body[end + 1] != ':')
    return std::nullopt;
  sv inner = body.substr(open + 1, end - open - 1);  // "1234,fffdd6e1f1e0,python"
  size_t c1 = inner.find(','), c2 = c1 == npos ? npos : inner.find(',', c1 + 1);
  if (c2 == npos) return std::nullopt;
  m.pid = inner.substr(0, c1);
  m.tid = inner.substr(c1 + 1, c2 - c1 - 1);
  m.process = inner.substr(c2 + 1);
  if (m.pid.empty() || number_at(m.pid, 0).size() != m.pid.size() || m.tid.empty()) return std::nullopt;
  for (char c : m.tid)
    if (!(is_digit(c) || (c >= 'a' && c <= 'f'))) return std::nullopt;
  sv rest = body.substr(end + 2);
  size_t sp = rest.find(' ');
  m.time_text = rest.substr(0, sp);
  if (m.time_text.size() < 19 || !is_digit(m.time_text[0]) || m.time_text[4] != '-')
    return std::nullopt;
  m.message = sp == npos ? sv{} : trim(rest.substr(sp + 1));
  return m;
}

namespace {

// Two digits at pos in [lo, hi].
bool two_digits_in(sv s, size_t pos, int lo, int hi) {
  if (pos + 2 > s.size() || !is_digit(s[pos]) || !is_digit(s[pos + 1])) return false;
  int v = (s[pos] - '0') * 10 + (s[pos + 1] - '0');
  return v >= lo && v <= hi;
}

// The token at pos up to the next blank.
sv token_at(sv s, size_t pos) {
  size_t e = pos;
  while (e < s.size() && !is_blank(s[e])) ++e;
  return s.substr(pos, e - pos);
}

}  // namespace

bool is_error_level(sv level) { return level == "ERROR" || level == "CRITICAL" || level == "FATAL"; }

std::optional<AppLogLine> parse_app_log_line(sv body) {
  // `YYYYMMDD-HH:MM:SS`: month and day, hour, minute and second in range
  if (body.size() < 26) return std::nullopt;
  for (size_t i = 0; i < 4; ++i)
    if (!is_digit(body[i])) return std::nullopt;
  if (!two_digits_in(body, 4, 1, 12) || !two_digits_in(body, 6, 1, 31) || body[8] != '-' ||
      !two_digits_in(body, 9, 0, 23) || body[11] != ':' || !two_digits_in(body, 12, 0, 59) ||
      body[14] != ':' || !two_digits_in(body, 15, 0, 60))
    return std::nullopt;
  size_t e = 17;
  if (e < body.size() && (body[e] == '.' || body[e] == ',')) {
    size_t b = ++e;
    while (e < body.size() && is_digit(body[e]) && e - b < 9) ++e;
    if (e == b) return std::nullopt;
  }
  if (e >= body.size() || body[e] != ' ') return std::nullopt;
  AppLogLine a;
  a.time_text = body.substr(0, e);
  // `[name] LEVEL:`: the level word is the first or second token
  static constexpr sv kLevels[] = {"DEBUG:", "INFO:", "WARNING:", "WARN:", "ERROR:", "CRITICAL:", "FATAL:"};
  size_t k = e + 1;
  for (int token = 0; token < 2 && k < body.size(); ++token) {
    sv t = token_at(body, k);
    for (sv level : kLevels)
      if (t == level) {
        a.level = t.substr(0, t.size() - 1);
        a.message = trim(body.substr(k + t.size()));
        return a;
      }
    if (token == 0) a.logger = t;
    k += t.size();
    while (k < body.size() && is_blank(body[k])) ++k;
  }
  return std::nullopt;
}

std::optional<IdValues> parse_id_values(sv body) {
  // cheap first: no `_id=` / `Id=`, no fact (most lines)
  if (body.find("_id=") == npos && body.find("Id=") == npos) return std::nullopt;
  IdValues v;
  auto value = [&](sv key) -> std::optional<int> {
    for (size_t at = body.find(key); at != npos; at = body.find(key, at + 1)) {
      if (at > 0 && (std::isalnum(static_cast<unsigned char>(body[at - 1])) || body[at - 1] == '_'))
        continue;  // `sub_device_id=` is another id
      sv n = number_at(body, at + key.size());
      size_t end = at + key.size() + n.size();
      if (n.empty() || n[0] == '-' || (end < body.size() && std::isalnum(static_cast<unsigned char>(body[end]))))
        continue;
      return small_int(n);
    }
    return std::nullopt;
  };
  v.device = value("device_id=");
  if (!v.device) v.device = value("deviceId=");
  v.stream = value("stream_id=");
  if (!v.stream) v.stream = value("streamId=");
  v.task = value("task_id=");
  if (!v.task) v.task = value("taskId=");
  if (!v.device && !v.stream && !v.task) return std::nullopt;
  // what went wrong, in words or as a code
  static constexpr sv kWords[] = {"fault", "Fault", "FAULT", "error", "Error", "ERROR", "fail",
                                  "Fail", "FAIL", "exception", "Exception", "abnormal", "timeout",
                                  "timed out"};
  for (sv w : kWords)
    if (body.find(w) != npos) return v;
  return std::nullopt;
}

}  // namespace triage::joblines
