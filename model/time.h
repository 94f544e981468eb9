#pragma once
// The time model: UTC microseconds, how they were obtained, and the original text.
// No zone database is used (g++ 12 has none): zones are numeric offsets or POSIX TZ rules
// (the footer of a TZif file), evaluated here. docs/time.md explains every basis.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// The instants the analyzer reads: 1970-01-01 to the end of 2200 (CivilTime::valid). A time
// read back from a file it wrote (a fleet summary) outside these is refused, never computed
// with: differences of such values stay far from int64 overflow.
constexpr int64_t kMinUtcUs = 0;
constexpr int64_t kMaxUtcUs = 7289654400LL * 1000000 - 1;  // 2200-12-31T23:59:59.999999Z

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
bool is_leap_year(int year);
int days_in_month(int year, int month);

// ISO 8601 "2026-03-01T12:00:00.123456Z" (microseconds shown only when non-zero).
std::string format_utc(int64_t utc_us);
// The same instant in a fixed offset, "2026-03-01T20:00:00+08:00".
std::string format_with_offset(int64_t utc_us, int offset_seconds);
// "+08:00", "-03:30" (seconds appended when not whole minutes).
std::string format_offset(int offset_seconds);

// "2026-03-01T12:00:00[.ffffff]" or with a space instead of 'T'; the zone part, if any, is
// left unread. Returns the number of bytes consumed, 0 when the text is no such time.
size_t parse_civil_prefix(std::string_view text, CivilTime& out);
// An ISO 8601 instant with a zone: "...Z", "...+08:00", "...+0800", or the compact
// "20260301T120000Z" of bundle names. nullopt for anything else (a time without a zone too).
std::optional<int64_t> parse_iso8601_utc_us(std::string_view text);

// A time zone: a fixed offset or a POSIX TZ rule with DST ("CST-8", "CET-1CEST,M3.5.0,M10.5.0/3").
class ZoneRule {
 public:
  static ZoneRule fixed(int offset_seconds_east, std::string name = {});
  // Parses a POSIX TZ string: `std offset [dst [offset] [,start[/time],end[/time]]]` with
  // names alphabetic or in angle brackets (`<+08>-8`), rules `Jn`, `n` or `Mm.w.d`, and
  // transition times that may be negative or beyond 24 h (RFC 8536). A DST name without
  // rules takes the US default `M3.2.0,M11.1.0`, as glibc does. nullopt when the string
  // cannot be understood (a zone name like "Asia/Shanghai", a ":file" form, trailing text).
  static std::optional<ZoneRule> from_posix(std::string_view tz);
  // Parses "+0800", "+08:00", "+08", "-0530", "UTC+08:00", "GMT-3", "UTC", "GMT", "Z"
  // (sign as written: east of UTC is positive, unlike POSIX).
  static std::optional<ZoneRule> from_offset_text(std::string_view text);

  // Offset east of UTC, in seconds, in force at this UTC instant.
  int offset_at_utc(int64_t utc_us) const;
  // Zone abbreviation in force at this UTC instant ("CST", "CEST", "+08"); may be empty.
  const std::string& abbreviation_at(int64_t utc_us) const;
  // Converts a local wall-clock reading to UTC. In the repeated hour of a DST fall-back
  // the earlier instant is taken; in the skipped hour the standard offset is used.
  int64_t local_to_utc_us(const CivilTime& local) const;
  // What the zone is: the POSIX string it came from, or "UTC+08:00" for a fixed offset.
  const std::string& description() const { return description_; }
  bool has_dst() const { return has_dst_; }
  int std_offset() const { return std_offset_; }
  int dst_offset() const { return dst_offset_; }

  struct Transition {  // POSIX rule part: Jn, n or Mm.w.d, with a time of day in seconds
    char kind = 'M';   // 'J' (1..365, no leap day), 'D' (0..365), 'M'
    int day = 0, week = 0, month = 0, weekday = 0;
    int seconds = 7200;
  };

 private:
  struct YearTransitions {
    int64_t start_utc_us, end_utc_us;
  };
  static constexpr int kTableFirstYear = 1969, kTableLastYear = 2201;
  std::string description_;
  std::string std_name_, dst_name_;
  int std_offset_ = 0;  // seconds east of UTC
  int dst_offset_ = 0;
  bool has_dst_ = false;
  Transition start_{}, end_{};
  // Transitions of the years most logs fall in, computed once (shared by copies, read-only).
  std::shared_ptr<const std::vector<YearTransitions>> table_;
  // UTC instant of a transition in `year`, whose time of day is read in `offset_before`.
  int64_t transition_utc_us(int year, const Transition& t, int offset_before) const;
  YearTransitions transitions_of(int year) const;
  bool dst_at_utc(int64_t utc_us) const;
};

// A TZif file (/etc/localtime) reduced to what the analyzer uses: the POSIX footer of a
// v2/v3 file. A v1 file or an empty footer falls back to the offset of the last
// transition (a fixed offset, DST unknown) and says so in `note`.
struct TzifZone {
  int version = 0;                 // 1, 2, 3 (or 4)
  std::optional<ZoneRule> zone;    // nullopt when the file is not usable
  std::string footer;              // the POSIX string, empty when the file has none
  bool from_last_transition = false;
  uint64_t transitions = 0;        // count in the file's last data block
  std::string note;                // what was assumed, for the report
  std::string error;               // why the file is not usable
};
TzifZone parse_tzif(std::string_view bytes);

// Seconds-since-boot made absolute with the boot time (epoch seconds); unknown without it.
Timestamp boot_relative_timestamp(int64_t since_boot_us, std::optional<int64_t> btime_s,
                                  std::string_view original);

// A year-less local reading ("Mar  1 12:00:00" of syslog): the year is the collection
// year in that zone; a date more than kYearEstimateSlackUs after the collection time
// belongs to the previous year (lines written while the collector ran are inside the slack).
// A 29 February goes back to the last leap year. Basis year_estimated.
inline constexpr int64_t kYearEstimateSlackUs = int64_t{86400} * 1000000;
Timestamp estimate_year(const CivilTime& month_day_time, const ZoneRule& zone,
                        int64_t collected_at_us, std::string_view original);

}  // namespace triage
