// ZoneRule: fixed offsets and POSIX TZ rules with DST, evaluated without a zone database.
#include <fmt/format.h>

#include <climits>

#include "model/time.h"
#include "model/strings.h"

namespace triage {
namespace {

std::string offset_name(int offset_seconds_east) { return "UTC" + format_offset(offset_seconds_east); }


// A zone abbreviation: three or more letters, or <...> of letters, digits, '+' and '-'.
bool read_name(std::string_view s, size_t& i, std::string& out) {
  size_t start = i;
  if (i < s.size() && s[i] == '<') {
    size_t j = i + 1;
    while (j < s.size() && (is_alpha(s[j]) || is_digit(s[j]) || s[j] == '+' || s[j] == '-')) ++j;
    if (j >= s.size() || s[j] != '>' || j - (i + 1) < 3) return false;
    out = std::string(s.substr(i + 1, j - i - 1));
    i = j + 1;
    return true;
  }
  while (i < s.size() && is_alpha(s[i])) ++i;
  if (i - start < 3) {
    i = start;
    return false;
  }
  out = std::string(s.substr(start, i - start));
  return true;
}

// [+-]hh[:mm[:ss]] -> signed seconds; hours at most max_hours.
bool read_hms(std::string_view s, size_t& i, int max_hours, int& seconds) {
  int sign = 1;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) sign = s[i++] == '-' ? -1 : 1;
  int parts[3] = {0, 0, 0};
  for (int p = 0; p < 3; ++p) {
    if (p > 0) {
      if (i >= s.size() || s[i] != ':') break;
      ++i;
    }
    size_t digits = 0;
    int v = 0;
    while (i < s.size() && is_digit(s[i]) && digits < 3) v = v * 10 + (s[i++] - '0'), ++digits;
    if (digits == 0 || (p > 0 && (digits != 2 || v > 59))) return false;
    parts[p] = v;
  }
  if (parts[0] > max_hours) return false;
  seconds = sign * (parts[0] * 3600 + parts[1] * 60 + parts[2]);
  return true;
}

bool read_int(std::string_view s, size_t& i, int& out) {
  size_t digits = 0;
  int v = 0;
  while (i < s.size() && is_digit(s[i]) && digits < 4) v = v * 10 + (s[i++] - '0'), ++digits;
  out = v;
  return digits > 0;
}

bool read_transition(std::string_view s, size_t& i, ZoneRule::Transition& t) {
  t = ZoneRule::Transition{};
  if (i < s.size() && s[i] == 'J') {
    ++i;
    t.kind = 'J';
    if (!read_int(s, i, t.day) || t.day < 1 || t.day > 365) return false;
  } else if (i < s.size() && s[i] == 'M') {
    ++i;
    t.kind = 'M';
    if (!read_int(s, i, t.month) || t.month < 1 || t.month > 12) return false;
    if (i >= s.size() || s[i++] != '.') return false;
    if (!read_int(s, i, t.week) || t.week < 1 || t.week > 5) return false;
    if (i >= s.size() || s[i++] != '.') return false;
    if (!read_int(s, i, t.weekday) || t.weekday > 6) return false;
  } else {
    t.kind = 'D';
    if (!read_int(s, i, t.day) || t.day > 365) return false;
  }
  if (i < s.size() && s[i] == '/') {
    ++i;
    if (!read_hms(s, i, 167, t.seconds)) return false;
  }
  return true;
}

// Days since the epoch of a transition's date in `year`.
int64_t transition_day(int year, const ZoneRule::Transition& t) {
  int64_t jan1 = days_from_civil(year, 1, 1);
  switch (t.kind) {
    case 'J': return jan1 + (t.day - 1) + (is_leap_year(year) && t.day >= 60 ? 1 : 0);
    case 'D': return jan1 + t.day;
    default: {
      int64_t first = days_from_civil(year, t.month, 1);
      int wday_first = static_cast<int>(((first + 4) % 7 + 7) % 7);  // 1970-01-01 was a Thursday
      int day = 1 + (t.weekday - wday_first + 7) % 7 + (t.week - 1) * 7;
      while (day > days_in_month(year, t.month)) day -= 7;  // week 5 = the last one
      return first + (day - 1);
    }
  }
}

}  // namespace

ZoneRule ZoneRule::fixed(int offset_seconds_east, std::string name) {
  ZoneRule z;
  z.std_offset_ = z.dst_offset_ = offset_seconds_east;
  z.std_name_ = z.dst_name_ = name;
  z.description_ = name.empty() ? offset_name(offset_seconds_east) : std::move(name);
  return z;
}

std::optional<ZoneRule> ZoneRule::from_offset_text(std::string_view t) {
  if (t == "Z" || t == "z") return fixed(0, "UTC");
  if (t.substr(0, 3) == "UTC" || t.substr(0, 3) == "GMT") {
    t.remove_prefix(3);
    if (t.empty()) return fixed(0, "UTC");
  }
  if (t.size() < 2 || (t[0] != '+' && t[0] != '-')) return std::nullopt;
  int sign = t[0] == '-' ? -1 : 1;
  std::string_view rest = t.substr(1);
  int h = 0, m = 0;
  size_t colon = rest.find(':');
  auto all_digits = [](std::string_view d) {
    if (d.empty()) return false;
    for (char c : d)
      if (!is_digit(c)) return false;
    return true;
  };
  if (colon != std::string_view::npos) {
    std::string_view hh = rest.substr(0, colon), mm = rest.substr(colon + 1);
    if (hh.size() > 2 || mm.size() != 2 || !all_digits(hh) || !all_digits(mm)) return std::nullopt;
    h = std::stoi(std::string(hh));
    m = std::stoi(std::string(mm));
  } else if (all_digits(rest) && (rest.size() == 4)) {
    h = (rest[0] - '0') * 10 + (rest[1] - '0');
    m = (rest[2] - '0') * 10 + (rest[3] - '0');
  } else if (all_digits(rest) && rest.size() <= 2) {
    h = std::stoi(std::string(rest));
  } else {
    return std::nullopt;
  }
  if (h > 14 || m > 59) return std::nullopt;
  return fixed(sign * (h * 3600 + m * 60));
}

std::optional<ZoneRule> ZoneRule::from_posix(std::string_view tz) {
  ZoneRule z;
  size_t i = 0;
  int posix_offset = 0;  // POSIX sign: positive is west of UTC
  if (!read_name(tz, i, z.std_name_) || !read_hms(tz, i, 24, posix_offset)) return std::nullopt;
  z.std_offset_ = z.dst_offset_ = -posix_offset;
  if (i < tz.size()) {
    if (!read_name(tz, i, z.dst_name_)) return std::nullopt;
    z.has_dst_ = true;
    z.dst_offset_ = z.std_offset_ + 3600;
    if (i < tz.size() && tz[i] != ',') {
      if (!read_hms(tz, i, 24, posix_offset)) return std::nullopt;
      z.dst_offset_ = -posix_offset;
    }
    if (i < tz.size()) {
      if (tz[i++] != ',' || !read_transition(tz, i, z.start_)) return std::nullopt;
      if (i >= tz.size() || tz[i++] != ',' || !read_transition(tz, i, z.end_)) return std::nullopt;
    } else {
      z.start_ = Transition{'M', 0, 2, 3, 0, 7200};  // US rules, glibc's default
      z.end_ = Transition{'M', 0, 1, 11, 0, 7200};
    }
  }
  if (i != tz.size()) return std::nullopt;
  z.description_ = std::string(tz);
  if (z.has_dst_) {
    auto table = std::make_shared<std::vector<YearTransitions>>();
    table->reserve(kTableLastYear - kTableFirstYear + 1);
    for (int y = kTableFirstYear; y <= kTableLastYear; ++y) table->push_back(z.transitions_of(y));
    z.table_ = std::move(table);
  }
  return z;
}

int64_t ZoneRule::transition_utc_us(int year, const Transition& t, int offset_before) const {
  int64_t local_s = transition_day(year, t) * 86400 + t.seconds;
  return (local_s - offset_before) * 1000000;
}

ZoneRule::YearTransitions ZoneRule::transitions_of(int year) const {
  if (table_ && year >= kTableFirstYear && year <= kTableLastYear)
    return (*table_)[static_cast<size_t>(year - kTableFirstYear)];
  return YearTransitions{transition_utc_us(year, start_, std_offset_),
                         transition_utc_us(year, end_, dst_offset_)};
}

// The latest transition at or before the instant decides; of equal instants DST wins, so
// "permanent DST" rules (0/0,J365/25) stay in DST across the new year.
bool ZoneRule::dst_at_utc(int64_t utc_us) const {
  if (!has_dst_) return false;
  int year = civil_from_utc_us(utc_us + int64_t{std_offset_} * 1000000).year;
  int64_t best = INT64_MIN;
  bool dst = false;
  for (int y = year - 1; y <= year + 1; ++y) {
    auto [start, end] = transitions_of(y);
    if (end <= utc_us && end > best) best = end, dst = false;
    if (start <= utc_us && start >= best) best = start, dst = true;
  }
  return dst;
}

int ZoneRule::offset_at_utc(int64_t utc_us) const {
  return dst_at_utc(utc_us) ? dst_offset_ : std_offset_;
}

const std::string& ZoneRule::abbreviation_at(int64_t utc_us) const {
  return dst_at_utc(utc_us) ? dst_name_ : std_name_;
}

int64_t ZoneRule::local_to_utc_us(const CivilTime& local) const {
  int64_t wall = civil_to_epoch_us(local);
  int64_t as_std = wall - int64_t{std_offset_} * 1000000;
  if (!has_dst_) return as_std;
  int64_t as_dst = wall - int64_t{dst_offset_} * 1000000;
  bool std_ok = !dst_at_utc(as_std);
  bool dst_ok = dst_at_utc(as_dst);
  if (std_ok && dst_ok) return std::min(as_std, as_dst);  // repeated hour: the earlier
  if (dst_ok) return as_dst;
  return as_std;  // standard time, or the skipped hour
}

}  // namespace triage
