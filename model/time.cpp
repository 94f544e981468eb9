#include "model/time.h"

#include <fmt/format.h>

namespace triage {

std::string_view to_string(TimeBasis b) {
  switch (b) {
    case TimeBasis::utc_in_source: return "utc_in_source";
    case TimeBasis::local_known_zone: return "local_known_zone";
    case TimeBasis::local_assumed_zone: return "local_assumed_zone";
    case TimeBasis::boot_relative: return "boot_relative";
    case TimeBasis::year_estimated: return "year_estimated";
    case TimeBasis::unknown: return "unknown";
  }
  return "unknown";
}

bool is_leap_year(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int days_in_month(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12) return 0;
  return month == 2 && is_leap_year(year) ? 29 : kDays[month - 1];
}

bool CivilTime::valid() const {
  if (year < 1970 || year > 2200 || month < 1 || month > 12 || day < 1) return false;
  if (day > days_in_month(year, month)) return false;
  return hour >= 0 && hour < 24 && minute >= 0 && minute < 60 && second >= 0 &&
         second <= 60 && micros >= 0 && micros < 1000000;
}

int64_t days_from_civil(int y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

CivilTime civil_from_utc_us(int64_t utc_us) {
  int64_t secs = utc_us >= 0 ? utc_us / 1000000 : (utc_us - 999999) / 1000000;
  int64_t micros = utc_us - secs * 1000000;
  int64_t days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
  int64_t sod = secs - days * 86400;
  int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  CivilTime t;
  t.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  t.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  t.year = static_cast<int>(yoe + era * 400 + (t.month <= 2));
  t.hour = static_cast<int>(sod / 3600);
  t.minute = static_cast<int>(sod / 60 % 60);
  t.second = static_cast<int>(sod % 60);
  t.micros = static_cast<int>(micros);
  return t;
}

int64_t civil_to_epoch_us(const CivilTime& t) {
  int64_t days = days_from_civil(t.year, t.month, t.day);
  return ((days * 86400 + t.hour * 3600 + t.minute * 60 + t.second) * 1000000) + t.micros;
}

static std::string format_civil(const CivilTime& c) {
  std::string s = fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", c.year, c.month, c.day,
                              c.hour, c.minute, c.second);
  if (c.micros != 0) s += fmt::format(".{:06}", c.micros);
  return s;
}

std::string format_utc(int64_t utc_us) { return format_civil(civil_from_utc_us(utc_us)) + "Z"; }

std::string format_offset(int offset_seconds) {
  int a = offset_seconds < 0 ? -offset_seconds : offset_seconds;
  std::string s = fmt::format("{}{:02}:{:02}", offset_seconds < 0 ? '-' : '+', a / 3600, a / 60 % 60);
  if (a % 60) s += fmt::format(":{:02}", a % 60);
  return s;
}

std::string format_with_offset(int64_t utc_us, int offset_seconds) {
  return format_civil(civil_from_utc_us(utc_us + int64_t{offset_seconds} * 1000000)) +
         format_offset(offset_seconds);
}

namespace {

// Reads exactly n digits at text[i]; false when they are not all digits.
bool read_digits(std::string_view text, size_t i, size_t n, int& out) {
  if (i + n > text.size()) return false;
  int v = 0;
  for (size_t k = i; k < i + n; ++k) {
    char c = text[k];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

}  // namespace

size_t parse_civil_prefix(std::string_view text, CivilTime& out) {
  CivilTime c;
  if (!read_digits(text, 0, 4, c.year) || text.size() < 19 || text[4] != '-' ||
      !read_digits(text, 5, 2, c.month) || text[7] != '-' || !read_digits(text, 8, 2, c.day) ||
      (text[10] != 'T' && text[10] != ' ') || !read_digits(text, 11, 2, c.hour) ||
      text[13] != ':' || !read_digits(text, 14, 2, c.minute) || text[16] != ':' ||
      !read_digits(text, 17, 2, c.second))
    return 0;
  size_t i = 19;
  if (i < text.size() && (text[i] == '.' || text[i] == ',')) {
    size_t digits = 0;
    int micros = 0;
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits)
      if (digits < 6) micros = micros * 10 + (text[i] - '0');
    if (digits == 0) return 0;
    for (size_t k = digits; k < 6; ++k) micros *= 10;
    c.micros = micros;
  }
  if (!c.valid()) return 0;
  out = c;
  return i;
}

std::optional<int64_t> parse_iso8601_utc_us(std::string_view text) {
  CivilTime c;
  // Compact form of bundle names: 20260301T120000Z
  if (text.size() == 16 && text[8] == 'T' && (text[15] == 'Z' || text[15] == 'z')) {
    if (read_digits(text, 0, 4, c.year) && read_digits(text, 4, 2, c.month) &&
        read_digits(text, 6, 2, c.day) && read_digits(text, 9, 2, c.hour) &&
        read_digits(text, 11, 2, c.minute) && read_digits(text, 13, 2, c.second) && c.valid())
      return civil_to_epoch_us(c);
    return std::nullopt;
  }
  size_t n = parse_civil_prefix(text, c);
  if (n == 0) return std::nullopt;
  std::string_view zone = text.substr(n);
  if (zone == "Z" || zone == "z") return civil_to_epoch_us(c);
  if (zone.empty() || (zone[0] != '+' && zone[0] != '-')) return std::nullopt;
  auto rule = ZoneRule::from_offset_text(zone);
  if (!rule) return std::nullopt;
  return civil_to_epoch_us(c) - int64_t{rule->std_offset()} * 1000000;
}

Timestamp boot_relative_timestamp(int64_t since_boot_us, std::optional<int64_t> btime_s,
                                  std::string_view original) {
  Timestamp t;
  t.original = std::string(original);
  if (!btime_s) return t;
  t.utc_us = *btime_s * 1000000 + since_boot_us;
  t.basis = TimeBasis::boot_relative;
  return t;
}

Timestamp estimate_year(const CivilTime& month_day_time, const ZoneRule& zone,
                        int64_t collected_at_us, std::string_view original) {
  Timestamp t;
  t.original = std::string(original);
  int64_t collected_local = collected_at_us + int64_t{zone.offset_at_utc(collected_at_us)} * 1000000;
  int year = civil_from_utc_us(collected_local).year;
  // Up to eight years back: enough to reach a leap year for 29 February.
  for (int tries = 0; tries < 9; ++tries, --year) {
    CivilTime c = month_day_time;
    c.year = year;
    if (!c.valid()) continue;
    int64_t utc = zone.local_to_utc_us(c);
    if (utc > collected_at_us + kYearEstimateSlackUs) continue;
    t.utc_us = utc;
    t.basis = TimeBasis::year_estimated;
    return t;
  }
  return t;
}

}  // namespace triage
