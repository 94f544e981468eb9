#include "parsers/common/line_prefix.h"
#include "model/strings.h"

namespace triage {

namespace {

using sv = std::string_view;
constexpr size_t npos = sv::npos;

bool starts_with(sv s, sv p) { return s.substr(0, p.size()) == p; }

bool to_i64(sv s, int64_t& out, size_t max_digits = 12) {
  if (s.empty() || s.size() > max_digits) return false;
  int64_t v = 0;
  for (char c : s) {
    if (!is_digit(c)) return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

size_t digits_at(sv s, size_t pos) {
  size_t k = pos;
  while (k < s.size() && is_digit(s[k])) ++k;
  return k - pos;
}

// ANSI SGR sequences (`ESC[36m`, `ESC[0;31m`) at pos: the position after them.
size_t skip_ansi(sv s, size_t pos) {
  while (pos + 1 < s.size() && s[pos] == '\x1b' && s[pos + 1] == '[') {
    size_t k = pos + 2;
    while (k < s.size() && (is_digit(s[k]) || s[k] == ';')) ++k;
    if (k < s.size() && s[k] == 'm') pos = k + 1;
    else break;
  }
  return pos;
}

// A file name as grep prints it: no blank, no bracket or quote first, at most 1 KiB.
bool plausible_path(sv p) {
  if (p.empty() || p.size() > 1024) return false;
  if (p[0] == '[' || p[0] == '(' || p[0] == '<' || p[0] == '"' || p[0] == '\'') return false;
  for (char c : p)
    if (c == ' ' || c == '\t' || c == '[' || c == '\x1b') return false;
  return true;
}
// A path that names a file: a directory part or an extension (`torch.OutOfMemoryError` has
// neither a slash nor a lower-case extension a log would carry).
bool names_file(sv p) {
  if (p.find('/') != npos) return true;
  size_t dot = p.rfind('.');
  if (dot == npos || dot + 1 >= p.size()) return false;
  sv ext = p.substr(dot + 1);
  for (sv e : {"log", "txt", "out", "err", "gz", "json", "jsonl", "csv", "trace"})
    if (ext == e) return true;
  return false;
}

// A grep file name has a letter and is not the head of a time (`2023-06-30T19:27:53`).
bool names_something(sv p) {
  bool letter = false;
  for (char c : p) letter = letter || is_alpha(c);
  if (!letter) return false;
  // exactly `2023-06-30T19`: a directory named by a date (`2024-02-20-17-07-25/slog/...`) is one
  bool date_head = p.size() == 13 && digits_at(p, 0) == 4 && p[4] == '-' &&
                   digits_at(p, 5) == 2 && p[7] == '-' && digits_at(p, 8) == 2 &&
                   (p[10] == 'T' || p[10] == '-' || p[10] == ' ') && digits_at(p, 11) == 2;
  return !date_head;
}

// The number at pos is a part of a date `dddd-dd-dd` (year, month or day).
bool in_date(sv s, size_t pos) {
  for (size_t back : {0, 5, 8}) {
    if (pos < back) continue;
    size_t b = pos - back;
    if ((b == 0 || !is_digit(s[b - 1])) && digits_at(s, b) == 4 && b + 10 <= s.size() &&
        s[b + 4] == '-' && digits_at(s, b + 5) == 2 && s[b + 7] == '-' &&
        digits_at(s, b + 8) == 2)
      return true;
  }
  return false;
}

// `[rank12]:` or `[default3]:` at pos; end is just after the colon.
bool match_rank(sv s, size_t pos, size_t& end, int& rank) {
  if (pos >= s.size() || s[pos] != '[') return false;
  sv rest = s.substr(pos + 1);
  size_t name_len = starts_with(rest, "rank") ? 4 : starts_with(rest, "default") ? 7 : 0;
  if (name_len == 0) return false;
  size_t n = digits_at(rest, name_len);
  size_t k = name_len + n;
  if (n == 0 || n > 7 || k + 1 >= rest.size() || rest[k] != ']' || rest[k + 1] != ':')
    return false;
  int64_t v = 0;
  if (!to_i64(rest.substr(name_len, n), v)) return false;
  rank = static_cast<int>(v);
  end = pos + 1 + k + 2;
  return true;
}

// `(VllmWorker TP1 pid=961)`, `(train pid=8464)`, `(pid=12)`, `(Actor pid=1, ip=10.0.0.1)`.
bool match_process(sv s, size_t pos, size_t& end, sv& name, int64_t& pid) {
  if (pos >= s.size() || s[pos] != '(') return false;
  size_t close = s.substr(0, pos + 201).find(')', pos + 1);
  if (close == npos) return false;
  sv inner = s.substr(pos + 1, close - pos - 1);
  if (inner.find('(') != npos) return false;
  for (size_t at = inner.find("pid="); at != npos; at = inner.find("pid=", at + 1)) {
    if (at > 0 && inner[at - 1] != ' ') continue;
    size_t n = digits_at(inner, at + 4);
    if (n == 0) continue;
    sv tail = inner.substr(at + 4 + n);
    if (!tail.empty()) {  // `, ip=10.0.0.5` is the only thing allowed after the pid
      if (!starts_with(tail, ", ip=") || tail.size() == 5) continue;
      bool ok = true;
      for (char c : tail.substr(5))
        ok = ok && (is_digit(c) || c == '.' || c == ':' || (c >= 'a' && c <= 'f') ||
                    (c >= 'A' && c <= 'F'));
      if (!ok) continue;
    }
    if (!to_i64(inner.substr(at + 4, n), pid)) continue;
    name = at > 0 ? inner.substr(0, at - 1) : sv{};
    end = close + 1;
    return true;
  }
  return false;
}

// `[Stage-1] ` (vLLM-Omni stages; any `[Word-N] ` / `[Word_N] ` a launcher puts first): a
// word, a dash or underscore, a number, `]` and a blank. Levels (`[ERROR]`), times
// (`[2024-07-03 ...]`) and `[Rank 0]` have no such shape.
bool match_tag(sv s, size_t pos, size_t& end) {
  if (pos >= s.size() || s[pos] != '[') return false;
  size_t k = pos + 1;
  while (k < s.size() && k - pos <= 24 && is_alpha(s[k])) ++k;
  if (k - pos - 1 < 2 || k >= s.size() || (s[k] != '-' && s[k] != '_')) return false;
  size_t n = digits_at(s, k + 1);
  k += 1 + n;
  if (n == 0 || n > 4 || k + 1 >= s.size() || s[k] != ']' || s[k + 1] != ' ') return false;
  end = k + 1;
  return true;
}

// A kernel time stamp `[ 2454.830692]` at pos (dmesg, kbox).
bool kernel_time_at(sv s, size_t pos) {
  if (pos >= s.size() || s[pos] != '[') return false;
  size_t k = pos + 1;
  while (k < s.size() && s[k] == ' ') ++k;
  size_t n = digits_at(s, k);
  if (n == 0 || k + n >= s.size() || s[k + n] != '.') return false;
  k += n + 1;
  size_t f = digits_at(s, k);
  return f >= 3 && k + f < s.size() && s[k + f] == ']';
}

// `rank=N` inside a process tag's name (`VllmWorker rank=0`).
std::optional<int> rank_in_name(sv name) {
  size_t at = name.find("rank=");
  if (at == npos || (at > 0 && name[at - 1] != ' ')) return std::nullopt;
  size_t n = digits_at(name, at + 5);
  int64_t v = 0;
  if (n == 0 || n > 7 || !to_i64(name.substr(at + 5, n), v)) return std::nullopt;
  return static_cast<int>(v);
}

// vLLM's logger prefix: its length, or 0. `LEVEL MM-DD HH:MM:SS[.f] [file.py:N] ` (since
// 0.8) or `LEVEL MM-DD HH:MM:SS file.py:N] ` (older).
size_t logger_prefix_length(sv s) {
  size_t level = 0;
  for (sv w : {"INFO", "ERROR", "WARNING", "DEBUG", "CRITICAL"})
    if (starts_with(s, w)) level = w.size();
  if (level == 0 || s.size() < level + 16 || s[level] != ' ') return 0;
  sv t = s.substr(level + 1);  // "09-07 01:11:09", or "2025-11-25 15:18:55" (newer vLLM)
  if (t.size() > 19 && digits_at(t, 0) == 4 && t[4] == '-') t.remove_prefix(5);
  static constexpr char kShape[] = "dd-dd dd:dd:dd";
  for (size_t i = 0; i < 14; ++i)
    if (kShape[i] == 'd' ? !is_digit(t[i]) : t[i] != kShape[i]) return 0;
  size_t k = 14;
  if (k < t.size() && t[k] == '.') k += 1 + digits_at(t, k + 1);
  if (k >= t.size() || t[k] != ' ') return 0;
  ++k;
  bool bracket = k < t.size() && t[k] == '[';
  size_t close = t.substr(0, k + 201).find(']', k);
  if (close == npos || close == k + (bracket ? 1 : 0)) return 0;
  sv marker = t.substr(k + (bracket ? 1 : 0), close - k - (bracket ? 1 : 0));
  size_t colon = marker.rfind(':');
  if (colon == npos || digits_at(marker, colon + 1) != marker.size() - colon - 1 ||
      marker.find(' ') != npos)
    return 0;
  size_t end = static_cast<size_t>(t.data() - s.data()) + close + 1;
  if (end < s.size() && s[end] == ' ') ++end;
  return end;
}

// `报错如下：` / `错误信息: `: a label of non-ASCII text and blanks ending in a full-width or
// ASCII colon, with the blanks after it; 0 when the line does not start so, or nothing follows.
size_t prose_label_length(sv s) {
  if (s.empty() || static_cast<unsigned char>(s[0]) < 0x80) return 0;
  size_t end = 0;
  for (size_t i = 0; i < s.size() && i < 64; ++i) {
    if (s.substr(i, 3) == "\xEF\xBC\x9A") {  // U+FF1A FULLWIDTH COLON
      end = i + 3;
      break;
    }
    if (s[i] == ':') {
      end = i + 1;
      break;
    }
    if (static_cast<unsigned char>(s[i]) < 0x80 && s[i] != ' ') return 0;
  }
  if (end == 0) return 0;
  while (end < s.size() && (s[end] == ' ' || s[end] == '\t')) ++end;
  return end < s.size() ? end : 0;
}

// docker compose's `service-name  | `: its length, or 0.
size_t compose_prefix_length(sv s, sv& service) {
  size_t k = 0;
  while (k < s.size() && k < 64 && (is_alpha(s[k]) || is_digit(s[k]) || s[k] == '_' ||
                                    s[k] == '-' || s[k] == '.'))
    ++k;
  if (k == 0) return 0;
  size_t name_end = k;
  while (k < s.size() && s[k] == ' ') ++k;
  if (k == name_end || k + 1 >= s.size() || s[k] != '|' || s[k + 1] != ' ') return 0;
  service = s.substr(0, name_end);
  return k + 2;
}

// `[pod/NAME/CONTAINER] `: its length, or 0.
size_t kubectl_prefix_length(sv s, sv& pod, sv& container) {
  if (!starts_with(s, "[pod/")) return 0;
  size_t close = s.substr(0, 512).find(']');
  if (close == npos) return 0;
  sv inner = s.substr(5, close - 5);
  size_t slash = inner.find('/');
  if (slash == npos || slash == 0 || slash + 1 >= inner.size()) return 0;
  for (char c : inner)
    if (c == ' ') return 0;
  pod = inner.substr(0, slash);
  container = inner.substr(slash + 1);
  size_t end = close + 1;
  if (end < s.size() && s[end] == ' ') ++end;
  return end;
}

// `2024-05-01T10:00:00[.fffffffff](Z|+08:00) ` and the CRI `stdout F ` after it.
size_t container_prefix_length(sv s, sv& time, sv& stream) {
  static constexpr char kShape[] = "dddd-dd-ddTdd:dd:dd";
  if (s.size() < 21) return 0;
  for (size_t i = 0; i < 19; ++i)
    if (kShape[i] == 'd' ? !is_digit(s[i]) : s[i] != kShape[i]) return 0;
  size_t k = 19;
  if (s[k] == '.' || s[k] == ',') {
    size_t n = digits_at(s, k + 1);
    if (n == 0) return 0;
    k += 1 + n;
  }
  if (k < s.size() && s[k] == 'Z') {
    ++k;
  } else if (k + 6 <= s.size() && (s[k] == '+' || s[k] == '-') && is_digit(s[k + 1]) &&
             is_digit(s[k + 2]) && s[k + 3] == ':' && is_digit(s[k + 4]) && is_digit(s[k + 5])) {
    k += 6;
  } else {
    return 0;  // a time without its zone is not what a container runtime writes
  }
  if (k >= s.size() || s[k] != ' ') return 0;
  time = s.substr(0, k);
  ++k;
  sv rest = s.substr(k);
  for (sv st : {"stdout ", "stderr "})
    if (starts_with(rest, st) && rest.size() >= 9 && (rest[7] == 'F' || rest[7] == 'P') &&
        rest[8] == ' ') {
      stream = rest.substr(0, 6);
      return k + 9;
    }
  return k;
}

// pdsh's `host: ` for DeepSpeed's `worker-N` hosts and dotted IPv4 addresses.
size_t pdsh_prefix_length(sv s, sv& host, std::optional<int>& worker) {
  size_t colon = s.substr(0, 64).find(": ");
  if (colon == npos || colon == 0) return 0;
  sv h = s.substr(0, colon);
  size_t w = h.rfind("worker-");
  if (w != npos && (w == 0 || h[w - 1] == '-')) {  // `worker-0`, `actor-multi-node-worker-0`
    for (char c : h.substr(0, w))
      if (!is_alpha(c) && !is_digit(c) && c != '-' && c != '_' && c != '.') return 0;
    int64_t v = 0;
    if (!to_i64(h.substr(w + 7), v, 6)) return 0;
    worker = static_cast<int>(v);
  } else {
    int dots = 0;
    for (size_t i = 0; i < h.size(); ++i) {
      if (h[i] == '.') {
        if (i == 0 || h[i - 1] == '.') return 0;
        ++dots;
      } else if (!is_digit(h[i])) {
        return 0;
      }
    }
    if (dots != 3 || h.back() == '.') return 0;
  }
  host = h;
  return colon + 2;
}

}  // namespace

size_t grep_prefix_length(sv s, sv& file, uint64_t& number, bool& context) {
  file = {};
  number = 0;
  context = false;
  // `   322\t`: cat -n and nl, a line number right-aligned in six columns and a tab. The width
  // tells it from a table whose first column is a number.
  // Only the first columns are looked at: a line of blanks costs no scan.
  if (size_t blanks = s.substr(0, 7).find_first_not_of(' '); blanks != npos && blanks < 6) {
    size_t n = digits_at(s, blanks);
    if (n > 0 && n <= 12 && blanks + n >= 6 && blanks + n < s.size() && s[blanks + n] == '\t' &&
        s[blanks] != '0') {
      int64_t v = 0;
      if (to_i64(s.substr(blanks, n), v) && v > 0) {
        number = static_cast<uint64_t>(v);
        return blanks + n + 1;
      }
    }
  }
  size_t colon = s.substr(0, 1030).find(':');
  // `path-N-` context lines come before any colon of the text.
  for (size_t d = s.find('-'); d != npos && d < colon && d < 1024; d = s.find('-', d + 1)) {
    size_t n = digits_at(s, d + 1);
    if (n == 0 || n > 12 || d + 1 + n >= s.size() || s[d + 1 + n] != '-') continue;
    sv p = s.substr(0, d);
    if (!plausible_path(p) || !names_file(p)) continue;
    if (in_date(s, d + 1)) continue;  // `logs/2024-07-03 ...`, `run-2024-07-03-10`
    int64_t v = 0;
    if (!to_i64(s.substr(d + 1, n), v) || v == 0) continue;
    file = p;
    number = static_cast<uint64_t>(v);
    context = true;
    return d + n + 2;
  }
  // `N[2454.830692] text`: grep -n of one kbox or dmesg file whose `:` was lost in the copy.
  if (size_t n = digits_at(s, 0); n > 0 && n <= 9 && kernel_time_at(s, n) && s[0] != '0') {
    int64_t v = 0;
    to_i64(s.substr(0, n), v);
    number = static_cast<uint64_t>(v);
    return n;
  }
  if (colon == npos || colon == 0) return 0;
  sv p = s.substr(0, colon);
  if (!plausible_path(p)) return 0;
  size_t n = digits_at(s, colon + 1);
  size_t after = colon + 1 + n;
  bool all_digits = digits_at(p, 0) == p.size();
  if (all_digits) {  // grep -n of one file: `12:text`, never a clock (`10:00:00`)
    int64_t v = 0;
    if (!to_i64(p, v, 9) || v == 0 || n > 0) return 0;
    number = static_cast<uint64_t>(v);
    return colon + 1;
  }
  if (n > 0 && n <= 12 && after < s.size() && (s[after] == ':' || s[after] == '-') &&
      names_something(p)) {
    // `x.py:12: UserWarning: ...` is Python's warning format, not grep.
    if (p.size() > 3 && p.substr(p.size() - 3) == ".py" && s[after] == ':' &&
        after + 1 < s.size() && s[after + 1] == ' ')
      return 0;
    int64_t v = 0;
    if (!to_i64(s.substr(colon + 1, n), v) || v == 0) return 0;
    file = p;
    number = static_cast<uint64_t>(v);
    context = s[after] == '-';
    return after + 1;
  }
  // `path:N[2454.830692] text`: the same, behind grep -rn's file name.
  if (n > 0 && n <= 12 && kernel_time_at(s, after) && names_file(p)) {
    int64_t v = 0;
    if (!to_i64(s.substr(colon + 1, n), v) || v == 0) return 0;
    file = p;
    number = static_cast<uint64_t>(v);
    return after;
  }
  // `path:text` (grep -r / -H without -n): only a name that is a file, or a header after it.
  // Not before a blank: `/x/libfoo.so: undefined symbol: f` is the loader's message.
  if (colon + 1 < s.size() && (names_file(p) || s[colon + 1] == '[') && s[colon + 1] != ' ' &&
      !starts_with(s.substr(colon + 1), "//")) {
    file = p;
    return colon + 1;
  }
  return 0;
}

std::string_view strip_ansi(sv s, std::string& scratch) {
  if (s.find('\x1b') == npos) return s;
  scratch.clear();
  for (size_t i = 0; i < s.size();) {
    size_t j = skip_ansi(s, i);
    if (j != i) {
      i = j;
      continue;
    }
    scratch.push_back(s[i++]);
  }
  return scratch;
}

LinePrefix split_line_prefix(sv line, PrefixForms forms, std::string* scratch) {
  LinePrefix p;
  if (starts_with(line, "\xEF\xBB\xBF")) {
    line.remove_prefix(3);
    p.bom = true;
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  size_t pos = skip_ansi(line, 0);
  if (pos > 0) p.ansi = true;
  auto rest = [&] { return line.substr(pos); };

  // `> `, `> > `: Markdown's quote, which an issue or forum post puts before pasted lines.
  // Not `>>> ` (Python's prompt) nor `>` alone.
  while (pos + 1 < line.size() && line[pos] == '>' && line[pos + 1] == ' ') pos = skip_ansi(line, pos + 2);
  // "`EZ3002: ...": Markdown's inline code opened before the pasted text (its close is often
  // lines later). One backtick, not a fence.
  auto skip_backtick = [&] {
    if (pos + 1 < line.size() && line[pos] == '`' && line[pos + 1] != '`') ++pos;
  };
  skip_backtick();
  if (forms.prose)
    if (size_t n = prose_label_length(rest())) {
      p.prose = line.substr(pos, n);
      pos = skip_ansi(line, pos + n);
      skip_backtick();
    }
  if (forms.grep) {
    bool ctx = false;
    if (size_t n = grep_prefix_length(rest(), p.grep_file, p.grep_line, ctx)) {
      p.grep_context = ctx;
      pos = skip_ansi(line, pos + n);
    }
  }
  size_t label_begin = npos, label_end = 0;
  if (forms.container) {
    if (size_t n = compose_prefix_length(rest(), p.container)) {
      label_begin = pos;  // the service is part of the stream key
      label_end = pos + p.container.size();
      pos = skip_ansi(line, pos + n);
    }
    if (size_t n = kubectl_prefix_length(rest(), p.pod, p.container)) {
      label_begin = pos;  // the pod is part of the stream key
      label_end = pos + 7 + p.pod.size() + p.container.size();
      pos = skip_ansi(line, pos + n);
    }
    if (size_t n = container_prefix_length(rest(), p.container_time, p.container_stream))
      pos = skip_ansi(line, pos + n);
  }
  if (forms.launcher) {
    size_t start = pos;
    if (size_t n = pdsh_prefix_length(rest(), p.host, p.worker)) {
      if (label_begin == npos) label_begin = start;
      label_end = start + n - 2;
      pos = skip_ansi(line, pos + n);
    }
    for (int i = 0; i < 3; ++i) {
      size_t end = 0;
      int rank = 0;
      int64_t pid = 0;
      sv name;
      if (match_rank(line, pos, end, rank)) {
        p.rank = rank;
      } else if (match_process(line, pos, end, name, pid)) {
        p.pid = pid;
        p.process_name = name;
        if (auto r = rank_in_name(name)) p.rank = r;
      } else if (match_tag(line, pos, end)) {
        // a stage tag names its process only by the label
      } else {
        break;
      }
      if (label_begin == npos) label_begin = pos;
      label_end = end;
      pos = skip_ansi(line, end);
      if (pos < line.size() && line[pos] == ' ') ++pos;  // the separator the wrapper added
    }
  }
  if (label_begin != npos) p.label = line.substr(label_begin, label_end - label_begin);
  if (pos > 0 && line.substr(0, pos).find('\x1b') != npos) p.ansi = true;
  sv body = line.substr(pos);
  if (forms.logger)
    if (size_t n = logger_prefix_length(body); n > 0) {
      p.logger = body.substr(0, n);
      body.remove_prefix(n);
      p.logger_prefix = true;
    }
  if (scratch && body.find('\x1b') != npos) {
    body = strip_ansi(body, *scratch);
    p.ansi = true;
  }
  p.body = body;
  return p;
}

}  // namespace triage
