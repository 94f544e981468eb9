// Civil conversions, ISO 8601 parsing, boot-relative times, year estimation for year-less
// syslog times, and the zone precedence for a process's local times.
#include <catch2/catch.hpp>

#include "model/host_facts.h"
#include "model/time.h"
#include "model/zones.h"

using namespace triage;

namespace {
int64_t utc_us(int y, int mo, int d, int h = 0, int mi = 0, int s = 0) {
  return civil_to_epoch_us(CivilTime{y, mo, d, h, mi, s, 0});
}
CivilTime civil(int y, int mo, int d, int h = 0, int mi = 0, int s = 0) {
  return CivilTime{y, mo, d, h, mi, s, 0};
}
}  // namespace

TEST_CASE("civil conversions and formats", "[time]") {
  CHECK(days_from_civil(1970, 1, 1) == 0);
  CHECK(days_from_civil(2000, 3, 1) == 11017);
  CHECK(utc_us(2026, 3, 1, 12) == int64_t{1772366400} * 1000000);
  CivilTime c = civil_from_utc_us(int64_t{1772366400} * 1000000 + 123456);
  CHECK((c.year == 2026 && c.month == 3 && c.day == 1 && c.hour == 12 && c.micros == 123456));
  CHECK(format_utc(int64_t{1772366400} * 1000000) == "2026-03-01T12:00:00Z");
  CHECK(format_utc(int64_t{1772366400} * 1000000 + 5) == "2026-03-01T12:00:00.000005Z");
  CHECK(format_with_offset(int64_t{1772366400} * 1000000, 8 * 3600) == "2026-03-01T20:00:00+08:00");
  CHECK(format_utc(-1) == "1969-12-31T23:59:59.999999Z");
  CHECK_FALSE(civil(2025, 2, 29).valid());
  CHECK(civil(2024, 2, 29).valid());
  CHECK_FALSE(civil(2026, 4, 31).valid());
  CHECK(days_in_month(2100, 2) == 28);
  CHECK(days_in_month(2000, 2) == 29);
}

TEST_CASE("ISO 8601 instants with a zone", "[time]") {
  const int64_t noon = utc_us(2026, 3, 1, 12);
  CHECK(parse_iso8601_utc_us("2026-03-01T12:00:00Z") == noon);
  CHECK(parse_iso8601_utc_us("2026-03-01 12:00:00Z") == noon);
  CHECK(parse_iso8601_utc_us("2026-03-01T20:00:00+08:00") == noon);
  CHECK(parse_iso8601_utc_us("2026-03-01T20:00:00+0800") == noon);
  CHECK(parse_iso8601_utc_us("2026-03-01T06:30:00-05:30") == noon);
  CHECK(parse_iso8601_utc_us("20260301T120000Z") == noon);
  CHECK(parse_iso8601_utc_us("2026-03-01T12:00:00.5Z") == noon + 500000);
  CHECK(parse_iso8601_utc_us("2026-03-01T12:00:00.123456789Z") == noon + 123456);
  for (const char* bad : {"", "2026-03-01T12:00:00", "2026-03-01T12:00:00 UTC", "2026-02-30T12:00:00Z",
                          "2026-03-01T25:00:00Z", "2026-03-01T12:00:00.Z", "20260301T1200Z",
                          "2026-03-01T12:00:00+08:00x", "yesterday"}) {
    INFO(bad);
    CHECK_FALSE(parse_iso8601_utc_us(bad));
  }
  CivilTime c;
  CHECK(parse_civil_prefix("2026-03-01 20:00:01.250 rest", c) == 23);
  CHECK((c.hour == 20 && c.second == 1 && c.micros == 250000));
}

TEST_CASE("boot-relative times need the boot time", "[time]") {
  Timestamp t = boot_relative_timestamp(12500000, int64_t{1772366400}, "[   12.500000]");
  CHECK(t.basis == TimeBasis::boot_relative);
  CHECK(t.utc_us == int64_t{1772366412} * 1000000 + 500000);
  CHECK(t.original == "[   12.500000]");
  Timestamp u = boot_relative_timestamp(12500000, std::nullopt, "[   12.500000]");
  CHECK(u.basis == TimeBasis::unknown);
  CHECK_FALSE(u.known());
  CHECK(u.original == "[   12.500000]");
  CHECK(to_string(TimeBasis::boot_relative) == "boot_relative");
}

TEST_CASE("year-less times take the year of the collection", "[time]") {
  ZoneRule cst = *ZoneRule::from_posix("CST-8");
  // Collected 2026-01-02 03:00Z = 11:00 local.
  const int64_t collected = utc_us(2026, 1, 2, 3);
  auto est = [&](int mo, int d, int h) {
    return estimate_year(CivilTime{0, mo, d, h, 0, 0, 0}, cst, collected, "Mmm dd hh:mm:ss");
  };
  Timestamp before = est(1, 2, 10);
  CHECK(before.basis == TimeBasis::year_estimated);
  CHECK(before.utc_us == utc_us(2026, 1, 2, 2));
  // A date after the collection belongs to the previous year...
  CHECK(est(12, 31, 23).utc_us == utc_us(2025, 12, 31, 15));
  CHECK(est(3, 1, 0).utc_us == utc_us(2025, 2, 28, 16));
  // ...except within a day of it: lines written while the collector ran.
  CHECK(est(1, 2, 13).utc_us == utc_us(2026, 1, 2, 5));
  CHECK(est(1, 3, 10).utc_us == utc_us(2026, 1, 3, 2));
  CHECK(est(1, 3, 12).utc_us == utc_us(2025, 1, 3, 4));
  // 29 February goes back to the last leap year.
  CHECK(est(2, 29, 12).utc_us == utc_us(2024, 2, 29, 4));
  // The collection year is the local one: 2026-12-31 20:00Z is already 2027 in CST.
  Timestamp ny = estimate_year(CivilTime{0, 1, 1, 1, 0, 0, 0}, cst, utc_us(2026, 12, 31, 20), "");
  CHECK(ny.utc_us == utc_us(2026, 12, 31, 17));
  // An impossible date stays unknown.
  CHECK(est(2, 30, 0).basis == TimeBasis::unknown);
  CHECK(est(13, 1, 0).basis == TimeBasis::unknown);
}

TEST_CASE("zone precedence: process tz.txt, host, --utc-offset, none", "[time][zones]") {
  BundleFacts facts;
  AnalyzeOptions options;
  CHECK_FALSE(zone_for_process(facts, 42, options));
  Timestamp none = local_to_timestamp(civil(2026, 3, 1, 20), zone_for_process(facts, 42, options),
                                      "2026-03-01 20:00:00");
  CHECK(none.basis == TimeBasis::unknown);

  options.utc_offset_seconds = 3600;
  auto assumed = zone_for_process(facts, 42, options);
  REQUIRE(assumed);
  CHECK(assumed->basis == TimeBasis::local_assumed_zone);
  CHECK(assumed->origin == "--utc-offset");
  CHECK(local_to_timestamp(civil(2026, 3, 1, 13), assumed, "x").utc_us == utc_us(2026, 3, 1, 12));

  facts.system.host_zone = ZoneRule::from_posix("CST-8");
  facts.system.host_zone_origin = "system/time.txt tz_posix";
  auto host = zone_for_process(facts, 42, options);
  REQUIRE(host);
  CHECK(host->basis == TimeBasis::local_known_zone);
  CHECK(host->origin == "system/time.txt tz_posix");
  Timestamp t = local_to_timestamp(civil(2026, 3, 1, 20), host, "2026-03-01 20:00:00");
  CHECK(t.utc_us == utc_us(2026, 3, 1, 12));
  CHECK(t.basis == TimeBasis::local_known_zone);

  ProcessInfo& p = facts.processes.by_pid[42];
  p.pid = 42;
  p.zone = ZoneRule::from_posix("UTC0");
  p.zone_origin = "processes/42/tz.txt TZ";
  auto proc = zone_for_process(facts, 42, options);
  REQUIRE(proc);
  CHECK(proc->origin == "processes/42/tz.txt TZ");
  CHECK(local_to_timestamp(civil(2026, 3, 1, 20), proc, "").utc_us == utc_us(2026, 3, 1, 20));
  // Another process, or none, uses the host's zone.
  CHECK(zone_for_process(facts, 7, options)->origin == "system/time.txt tz_posix");
  CHECK(zone_for_process(facts, std::nullopt, options)->origin == "system/time.txt tz_posix");
  // A zone the process names but the analyzer could not read is an assumption.
  p.zone_assumed = true;
  CHECK(zone_for_process(facts, 42, options)->basis == TimeBasis::local_assumed_zone);

  Timestamp y = local_without_year_to_timestamp(CivilTime{0, 3, 1, 20, 0, 0, 0}, host,
                                                utc_us(2026, 6, 1), "Mar  1 20:00:00");
  CHECK(y.basis == TimeBasis::year_estimated);
  CHECK(y.utc_us == utc_us(2026, 3, 1, 12));
  CHECK(local_without_year_to_timestamp(CivilTime{0, 3, 1, 20, 0, 0, 0}, host, std::nullopt, "")
            .basis == TimeBasis::unknown);
}
