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

bool CivilTime::valid() const {
  static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (year < 1970 || year > 2200 || month < 1 || month > 12 || day < 1) return false;
  if (day > kDays[month - 1]) return false;
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (month == 2 && day == 29 && !leap) return false;
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

std::string format_with_offset(int64_t utc_us, int offset_seconds) {
  std::string s = format_civil(civil_from_utc_us(utc_us + int64_t{offset_seconds} * 1000000));
  int a = offset_seconds < 0 ? -offset_seconds : offset_seconds;
  return s + fmt::format("{}{:02}:{:02}", offset_seconds < 0 ? '-' : '+', a / 3600, a / 60 % 60);
}

ZoneRule ZoneRule::fixed(int offset_seconds_east, std::string name) {
  ZoneRule z;
  z.std_offset_ = offset_seconds_east;
  int a = offset_seconds_east < 0 ? -offset_seconds_east : offset_seconds_east;
  z.description_ = name.empty() ? fmt::format("UTC{}{:02}:{:02}", offset_seconds_east < 0 ? '-' : '+',
                                              a / 3600, a / 60 % 60)
                                : std::move(name);
  return z;
}

// Fixed offsets only so far; Foundation B adds POSIX rules with DST.
std::optional<ZoneRule> ZoneRule::from_offset_text(std::string_view t) {
  if (t == "UTC" || t == "Z" || t == "GMT") return fixed(0, "UTC");
  if (t.size() < 3 || (t[0] != '+' && t[0] != '-')) return std::nullopt;
  int sign = t[0] == '-' ? -1 : 1;
  std::string digits;
  for (char c : t.substr(1)) {
    if (c == ':') continue;
    if (c < '0' || c > '9') return std::nullopt;
    digits += c;
  }
  if (digits.size() != 2 && digits.size() != 4) return std::nullopt;
  int h = std::stoi(digits.substr(0, 2));
  int m = digits.size() == 4 ? std::stoi(digits.substr(2, 2)) : 0;
  if (h > 14 || m > 59) return std::nullopt;
  return fixed(sign * (h * 3600 + m * 60));
}

std::optional<ZoneRule> ZoneRule::from_posix(std::string_view) { return std::nullopt; }

int ZoneRule::offset_at_utc(int64_t) const { return std_offset_; }

int64_t ZoneRule::local_to_utc_us(const CivilTime& local) const {
  return civil_to_epoch_us(local) - int64_t{std_offset_} * 1000000;
}

}  // namespace triage
