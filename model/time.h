#pragma once
// The time model: UTC microseconds, how they were obtained, and the original text.
// No zone database is used (g++ 12 has none): zones are numeric offsets or POSIX TZ rules
// (the footer of a TZif file), evaluated here.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace triage {

enum class TimeBasis {
  utc_in_source,       // the source states UTC (journal __REALTIME_TIMESTAMP, manifest)
  local_known_zone,    // local time converted with the zone the bundle states
  local_assumed_zone,  // local time converted with an assumed zone (--utc-offset, fallback)
  boot_relative,       // seconds since boot converted via btime (approximate)
  year_estimated,      // year-less syslog time; year taken from the collection time
  unknown,             // no usable time
};
std::string_view to_string(TimeBasis b);

struct Timestamp {
  int64_t utc_us = 0;
  TimeBasis basis = TimeBasis::unknown;
  std::string original;  // the text as it stood in the source

  bool known() const { return basis != TimeBasis::unknown; }
};

// A wall-clock reading without a zone. Filled by parsers without allocating.
struct CivilTime {
  int year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0;
  int micros = 0;
  bool valid() const;
};

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
int64_t days_from_civil(int year, int month, int day);
CivilTime civil_from_utc_us(int64_t utc_us);
// Treats the civil time as UTC.
int64_t civil_to_epoch_us(const CivilTime& t);

// ISO 8601 "2026-03-01T12:00:00.123456Z" (microseconds shown only when non-zero).
std::string format_utc(int64_t utc_us);
// The same instant in a fixed offset, "2026-03-01T20:00:00+08:00".
std::string format_with_offset(int64_t utc_us, int offset_seconds);

// A time zone: a fixed offset or a POSIX TZ rule with DST ("CST-8", "CET-1CEST,M3.5.0,M10.5.0/3").
class ZoneRule {
 public:
  static ZoneRule fixed(int offset_seconds_east, std::string name = {});
  // Parses a POSIX TZ string; nullopt when it cannot be understood.
  static std::optional<ZoneRule> from_posix(std::string_view tz);
  // Parses "+0800", "+08:00", "-0530", "UTC", "Z".
  static std::optional<ZoneRule> from_offset_text(std::string_view text);

  // Offset east of UTC, in seconds, in force at this UTC instant.
  int offset_at_utc(int64_t utc_us) const;
  // Converts a local wall-clock reading to UTC. In the repeated hour of a DST fall-back
  // the earlier instant is taken; in the skipped hour the standard offset is used.
  int64_t local_to_utc_us(const CivilTime& local) const;
  const std::string& description() const { return description_; }
  bool has_dst() const { return has_dst_; }

  struct Transition {  // POSIX rule part: Jn, n or Mm.w.d, with a time of day in seconds
    char kind = 'M';   // 'J' (1..365, no leap day), 'D' (0..365), 'M'
    int day = 0, week = 0, month = 0, weekday = 0;
    int seconds = 7200;
  };

 private:
  std::string description_;
  int std_offset_ = 0;  // seconds east of UTC
  int dst_offset_ = 0;
  bool has_dst_ = false;
  Transition start_{}, end_{};
  int64_t transition_utc_us(int year, const Transition& t, int offset_before) const;
};

}  // namespace triage
