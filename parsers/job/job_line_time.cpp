#include "parsers/job/job_line_time.h"

namespace triage::joblines {
namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// `n` digits at `at` as a number; -1 when they are not all digits or the text is short.
int number(std::string_view s, size_t at, size_t n) {
  if (at + n > s.size()) return -1;
  int v = 0;
  for (size_t k = 0; k < n; ++k) {
    if (!digit(s[at + k])) return -1;
    v = v * 10 + (s[at + k] - '0');
  }
  return v;
}

// A calendar day: without a year, 29 February stands (a leap year may have printed it).
bool valid_day(int year, int month, int day) {
  if (month < 1 || month > 12 || day < 1) return false;
  int last = year == 0 ? (month == 2 ? 29 : days_in_month(2001, month)) : days_in_month(year, month);
  return day <= last;
}

// `HH:MM:SS` at `at`, an optional fraction (`.123456`, `,123`): the bytes read, 0 when none.
size_t clock_at(std::string_view s, size_t at, CivilTime& t) {
  int h = number(s, at, 2), m = number(s, at + 3, 2), sec = number(s, at + 6, 2);
  if (h < 0 || m < 0 || sec < 0 || s[at + 2] != ':' || s[at + 5] != ':') return 0;
  if (h > 23 || m > 59 || sec > 60) return 0;
  t.hour = h;
  t.minute = m;
  t.second = sec;
  t.micros = 0;
  size_t e = at + 8;
  if (e < s.size() && (s[e] == '.' || s[e] == ',') && e + 1 < s.size() && digit(s[e + 1])) {
    size_t k = e + 1;
    int scale = 100000;
    while (k < s.size() && digit(s[k])) {
      if (scale > 0) t.micros += (s[k] - '0') * scale;
      scale /= 10;
      ++k;
    }
    e = k;
  }
  return e - at;
}

// Ends the time: the end of the line, a blank or a closing bracket (not `09:09:35x`).
bool ends_time(std::string_view s, size_t at) { return at >= s.size() || s[at] == ' ' || s[at] == ']'; }

// `MM?DD HH:MM:SS` at `at` with `sep` between month and day; year 0.
std::optional<LineTime> month_day(std::string_view s, size_t at, char sep, std::string_view form) {
  int mo = number(s, at, 2), d = number(s, at + 3, 2);
  if (mo < 0 || d < 0 || s.size() < at + 14 || s[at + 2] != sep || s[at + 5] != ' ') return std::nullopt;
  if (!valid_day(0, mo, d)) return std::nullopt;
  LineTime lt;
  size_t n = clock_at(s, at + 6, lt.local);
  if (n == 0 || !ends_time(s, at + 6 + n)) return std::nullopt;
  lt.local.year = 0;
  lt.local.month = mo;
  lt.local.day = d;
  lt.text = s.substr(at, 6 + n);
  lt.form = form;
  return lt;
}

// `YYYY?MM?DD?HH:MM:SS` at `at` (`-` or `/` between the date's parts; blank, `T` or `-` before
// the clock).
std::optional<LineTime> full_date(std::string_view s, size_t at) {
  int y = number(s, at, 4), mo = number(s, at + 5, 2), d = number(s, at + 8, 2);
  if (y < 1970 || mo < 0 || d < 0 || s.size() < at + 19) return std::nullopt;
  char sep = s[at + 4], mid = s[at + 10];
  if ((sep != '-' && sep != '/') || s[at + 7] != sep || (mid != ' ' && mid != 'T' && mid != '-'))
    return std::nullopt;
  if (y > 2200 || !valid_day(y, mo, d)) return std::nullopt;
  LineTime lt;
  size_t n = clock_at(s, at + 11, lt.local);
  if (n == 0) return std::nullopt;
  lt.local.year = y;
  lt.local.month = mo;
  lt.local.day = d;
  lt.text = s.substr(at, 11 + n);
  lt.form = sep == '/' ? "slash" : "iso";
  return lt;
}

}  // namespace

std::optional<LineTime> read_line_time(std::string_view s) {
  if (s.size() < 14) return std::nullopt;
  if (digit(s[0])) {
    if (auto t = full_date(s, 0)) return t;
    // mmengine: the time, then ` - ` and the logger name.
    if (auto t = month_day(s, 0, '/', "mmengine"))
      if (s.substr(t->text.size()).starts_with(" - ")) return t;
    return std::nullopt;
  }
  if (s[0] == '[') {
    if (auto t = full_date(s, 1)) return t;
    // detectron2 / LiBai: `[MM/DD HH:MM:SS name]:`.
    if (auto t = month_day(s, 1, '/', "detectron2"))
      if (size_t close = s.find("]: ", 1 + t->text.size()); close != std::string_view::npos) return t;
    return std::nullopt;
  }
  // glog: a level letter, `MMDD` or `YYYYMMDD`, a blank, the clock with its fraction.
  if (s[0] == 'I' || s[0] == 'W' || s[0] == 'E' || s[0] == 'F') {
    size_t date = 0;
    while (1 + date < s.size() && digit(s[1 + date])) ++date;
    if ((date != 4 && date != 8) || 1 + date >= s.size() || s[1 + date] != ' ') return std::nullopt;
    int y = date == 8 ? number(s, 1, 4) : 0;
    int mo = number(s, 1 + date - 4, 2), d = number(s, 1 + date - 2, 2);
    if ((date == 8 && (y < 1970 || y > 2200)) || !valid_day(y, mo, d)) return std::nullopt;
    LineTime lt;
    size_t n = clock_at(s, 2 + date, lt.local);
    if (n <= 8 || !ends_time(s, 2 + date + n)) return std::nullopt;  // glog always prints the fraction
    lt.local.year = y;
    lt.local.month = mo;
    lt.local.day = d;
    lt.text = s.substr(1, 1 + date + n);
    lt.form = "glog";
    return lt;
  }
  return std::nullopt;
}

std::optional<LineTime> read_logger_time(std::string_view logger) {
  size_t sp = logger.find(' ');
  if (sp == std::string_view::npos || sp == 0) return std::nullopt;
  return month_day(logger, sp + 1, '-', "vllm");
}

bool has_own_date(std::string_view s) {
  for (size_t i = 0; i + 10 <= s.size(); ++i) {
    if (!digit(s[i]) || (i > 0 && digit(s[i - 1]))) continue;
    int y = number(s, i, 4);
    if (y < 1970 || y > 2200) continue;
    char sep = s[i + 4];
    if ((sep == '-' || sep == '/') && s[i + 7] == sep && number(s, i + 5, 2) >= 1 && number(s, i + 8, 2) >= 1) return true;
  }
  return false;
}

}  // namespace triage::joblines
