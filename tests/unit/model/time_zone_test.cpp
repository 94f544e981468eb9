// The zone model: fixed offsets, POSIX TZ rules with DST in both hemispheres, the DST edge
// semantics documented in model/time.h, and glibc as an independent oracle for the rules.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>

#include "model/time.h"

using namespace triage;

namespace {

constexpr int64_t kUs = 1000000;

int64_t utc_us(int y, int mo, int d, int h = 0, int mi = 0, int s = 0) {
  CivilTime c{y, mo, d, h, mi, s, 0};
  return civil_to_epoch_us(c);
}

CivilTime civil(int y, int mo, int d, int h = 0, int mi = 0, int s = 0) {
  return CivilTime{y, mo, d, h, mi, s, 0};
}

ZoneRule posix(const char* tz) {
  auto z = ZoneRule::from_posix(tz);
  INFO(tz);
  REQUIRE(z);
  return *z;
}

// Sets TZ for glibc (the oracle) and restores the test's own TZ afterwards.
class ScopedTz {
 public:
  explicit ScopedTz(const std::string& tz) {
    if (const char* old = std::getenv("TZ")) old_ = old;
    setenv("TZ", tz.c_str(), 1);
    tzset();
  }
  ~ScopedTz() {
    if (old_) setenv("TZ", old_->c_str(), 1);
    else unsetenv("TZ");
    tzset();
  }

 private:
  std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("fixed offsets from text, east positive", "[time][zone]") {
  struct Case {
    const char* text;
    int seconds;
  } cases[] = {{"+0800", 8 * 3600},   {"+08:00", 8 * 3600}, {"+08", 8 * 3600},
               {"+8", 8 * 3600},      {"-0530", -19800},    {"-03:30", -12600},
               {"UTC", 0},            {"GMT", 0},           {"Z", 0},
               {"UTC+08:00", 28800},  {"GMT-3", -10800},    {"+0000", 0}};
  for (const auto& c : cases) {
    INFO(c.text);
    auto z = ZoneRule::from_offset_text(c.text);
    REQUIRE(z);
    CHECK(z->offset_at_utc(utc_us(2026, 7, 1)) == c.seconds);
    CHECK_FALSE(z->has_dst());
  }
  for (const char* bad : {"", "+", "0800", "+080", "+08:0", "+15:00", "+08:60", "CST", "+08x"}) {
    INFO(bad);
    CHECK_FALSE(ZoneRule::from_offset_text(bad));
  }
  CHECK(ZoneRule::fixed(8 * 3600).description() == "UTC+08:00");
  CHECK(ZoneRule::fixed(-(5 * 3600 + 30 * 60)).description() == "UTC-05:30");
  CHECK(format_offset(19800) == "+05:30");
  CHECK(format_offset(-3600) == "-01:00");
}

TEST_CASE("POSIX rule without DST: CST-8 and angle-bracket names", "[time][zone]") {
  ZoneRule cst = posix("CST-8");
  CHECK_FALSE(cst.has_dst());
  CHECK(cst.offset_at_utc(utc_us(2026, 1, 1)) == 8 * 3600);
  CHECK(cst.offset_at_utc(utc_us(2026, 7, 1)) == 8 * 3600);
  CHECK(cst.abbreviation_at(0) == "CST");
  CHECK(cst.local_to_utc_us(civil(2026, 3, 1, 20, 0, 0)) == utc_us(2026, 3, 1, 12));
  CHECK(cst.description() == "CST-8");

  ZoneRule iran = posix("<+0330>-3:30");
  CHECK(iran.offset_at_utc(utc_us(2026, 6, 1)) == 3 * 3600 + 1800);
  CHECK(iran.abbreviation_at(0) == "+0330");
  CHECK(iran.local_to_utc_us(civil(2026, 6, 1, 3, 30)) == utc_us(2026, 6, 1, 0, 0));

  ZoneRule plus8 = posix("<+08>-8");
  CHECK(plus8.offset_at_utc(0) == 8 * 3600);
  ZoneRule west = posix("<-03>3");
  CHECK(west.offset_at_utc(0) == -3 * 3600);
  CHECK(posix("UTC0").offset_at_utc(utc_us(2026, 1, 1)) == 0);
}

TEST_CASE("POSIX rule with DST, northern hemisphere: CET-1CEST,M3.5.0,M10.5.0/3", "[time][zone]") {
  ZoneRule cet = posix("CET-1CEST,M3.5.0,M10.5.0/3");
  CHECK(cet.has_dst());
  // 2026: last Sunday of March is the 29th (02:00 CET = 01:00Z), of October the 25th
  // (03:00 CEST = 01:00Z).
  CHECK(cet.offset_at_utc(utc_us(2026, 3, 29, 0, 59, 59)) == 3600);
  CHECK(cet.offset_at_utc(utc_us(2026, 3, 29, 1, 0, 0)) == 7200);
  CHECK(cet.abbreviation_at(utc_us(2026, 3, 29, 1, 0, 0)) == "CEST");
  CHECK(cet.offset_at_utc(utc_us(2026, 10, 25, 0, 59, 59)) == 7200);
  CHECK(cet.offset_at_utc(utc_us(2026, 10, 25, 1, 0, 0)) == 3600);
  CHECK(cet.abbreviation_at(utc_us(2026, 12, 1)) == "CET");

  // Ordinary local times on either side.
  CHECK(cet.local_to_utc_us(civil(2026, 1, 15, 12)) == utc_us(2026, 1, 15, 11));
  CHECK(cet.local_to_utc_us(civil(2026, 7, 15, 12)) == utc_us(2026, 7, 15, 10));
  // Skipped hour (02:00-03:00 on 29 March does not exist): the standard offset is used.
  CHECK(cet.local_to_utc_us(civil(2026, 3, 29, 2, 30)) == utc_us(2026, 3, 29, 1, 30));
  // Repeated hour (02:00-03:00 on 25 October happens twice): the earlier instant (CEST).
  CHECK(cet.local_to_utc_us(civil(2026, 10, 25, 2, 30)) == utc_us(2026, 10, 25, 0, 30));
  CHECK(cet.local_to_utc_us(civil(2026, 10, 25, 3, 0)) == utc_us(2026, 10, 25, 2, 0));
}

TEST_CASE("POSIX rule with DST, southern hemisphere: AEST-10AEDT,M10.1.0,M4.1.0/3", "[time][zone]") {
  ZoneRule syd = posix("AEST-10AEDT,M10.1.0,M4.1.0/3");
  // Summer (DST) spans the new year.
  CHECK(syd.offset_at_utc(utc_us(2026, 1, 15)) == 11 * 3600);
  CHECK(syd.offset_at_utc(utc_us(2026, 7, 15)) == 10 * 3600);
  CHECK(syd.offset_at_utc(utc_us(2026, 12, 31, 23)) == 11 * 3600);
  // 2026: DST ends Sunday 5 April 03:00 AEDT = 4 April 16:00Z; starts Sunday 4 October
  // 02:00 AEST = 3 October 16:00Z.
  CHECK(syd.offset_at_utc(utc_us(2026, 4, 4, 15, 59, 59)) == 11 * 3600);
  CHECK(syd.offset_at_utc(utc_us(2026, 4, 4, 16, 0, 0)) == 10 * 3600);
  CHECK(syd.offset_at_utc(utc_us(2026, 10, 3, 15, 59, 59)) == 10 * 3600);
  CHECK(syd.offset_at_utc(utc_us(2026, 10, 3, 16, 0, 0)) == 11 * 3600);
  // Repeated hour 02:00-03:00 on 5 April: the earlier instant (AEDT).
  CHECK(syd.local_to_utc_us(civil(2026, 4, 5, 2, 30)) == utc_us(2026, 4, 4, 15, 30));
  // Skipped hour 02:00-03:00 on 4 October: standard offset.
  CHECK(syd.local_to_utc_us(civil(2026, 10, 4, 2, 30)) == utc_us(2026, 10, 3, 16, 30));
}

TEST_CASE("POSIX rule defaults and rule forms", "[time][zone]") {
  // A DST name without rules takes the US rules (second Sunday of March, first of November).
  ZoneRule est = posix("EST5EDT");
  CHECK(est.offset_at_utc(utc_us(2026, 3, 8, 6, 59)) == -5 * 3600);
  CHECK(est.offset_at_utc(utc_us(2026, 3, 8, 7, 0)) == -4 * 3600);
  CHECK(est.offset_at_utc(utc_us(2026, 11, 1, 5, 59)) == -4 * 3600);
  CHECK(est.offset_at_utc(utc_us(2026, 11, 1, 6, 0)) == -5 * 3600);
  // Explicit DST offset.
  ZoneRule lhi = posix("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0");
  CHECK(lhi.offset_at_utc(utc_us(2026, 1, 1)) == 11 * 3600);
  CHECK(lhi.offset_at_utc(utc_us(2026, 7, 1)) == 10 * 3600 + 1800);
  // Jn never counts 29 February; n does. J60 is 1 March in every year.
  ZoneRule j = posix("AAA3BBB,J60/2,J300/2");
  CHECK(j.offset_at_utc(utc_us(2024, 3, 1, 4, 59)) == -3 * 3600);  // 02:00 local = 05:00Z
  CHECK(j.offset_at_utc(utc_us(2024, 3, 1, 5, 0)) == -2 * 3600);
  ZoneRule n = posix("AAA3BBB,59/2,299/2");  // zero-based: day 59 is 29 Feb in 2024
  CHECK(n.offset_at_utc(utc_us(2024, 2, 29, 4, 59)) == -3 * 3600);
  CHECK(n.offset_at_utc(utc_us(2024, 2, 29, 5, 0)) == -2 * 3600);
  CHECK(n.offset_at_utc(utc_us(2025, 3, 1, 5, 0)) == -2 * 3600);  // 1 March in 2025
  CHECK(n.offset_at_utc(utc_us(2025, 2, 28, 23, 0)) == -3 * 3600);
  // Permanent DST: all year in DST, also across the new year.
  ZoneRule perm = posix("EST5EDT,0/0,J365/25");
  for (int m = 1; m <= 12; ++m) CHECK(perm.offset_at_utc(utc_us(2026, m, 1, 3)) == -4 * 3600);
  CHECK(perm.offset_at_utc(utc_us(2027, 1, 1, 4, 0)) == -4 * 3600);
  // Negative transition times (Nuuk) and times beyond 24 h (Israel).
  ZoneRule nuuk = posix("<-02>2<-01>,M3.5.0/-1,M10.5.0/0");
  // Last Sunday of March 2026 is the 29th; -1:00 is Saturday 23:00 local = Sunday 01:00Z.
  CHECK(nuuk.offset_at_utc(utc_us(2026, 3, 29, 0, 59)) == -2 * 3600);
  CHECK(nuuk.offset_at_utc(utc_us(2026, 3, 29, 1, 0)) == -1 * 3600);
  ZoneRule israel = posix("IST-2IDT,M3.4.4/26,M10.5.0");
  // Fourth Thursday of March 2026 is the 26th; 26:00 = Friday 27th 02:00 IST = 00:00Z.
  CHECK(israel.offset_at_utc(utc_us(2026, 3, 26, 23, 59)) == 2 * 3600);
  CHECK(israel.offset_at_utc(utc_us(2026, 3, 27, 0, 0)) == 3 * 3600);
}

TEST_CASE("POSIX strings that are not rules are refused", "[time][zone]") {
  for (const char* bad :
       {"", "Asia/Shanghai", ":Asia/Shanghai", ":/etc/localtime", "CST", "CS-8", "CST-8,",
        "CST-8 ", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0",
        "CET-1CEST,M3.5.7,M10.5.0", "CET-1CEST,J0,J100", "CET-1CEST,366,100", "<+08-8",
        "<+8>-8", "CST-25", "CET-1CEST,M3.5.0/168,M10.5.0"}) {
    INFO(bad);
    CHECK_FALSE(ZoneRule::from_posix(bad));
  }
}

// Permanent DST ("EST5EDT,0/0,J365/25") is left out: glibc evaluates each UTC year on its
// own and shows standard time for the first hours of every year, against RFC 8536 8.
TEST_CASE("POSIX rules agree with glibc at every half hour of 2024-2027", "[time][zone]") {
  const char* rules[] = {
      "CET-1CEST,M3.5.0,M10.5.0/3",        "AEST-10AEDT,M10.1.0,M4.1.0/3",
      "CST-8",                             "<+0330>-3:30",
      "NZST-12NZDT,M9.5.0,M4.1.0/3",       "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0",
      "<-02>2<-01>,M3.5.0/-1,M10.5.0/0",   "IST-2IDT,M3.4.4/26,M10.5.0",
      "IST-1GMT0,M10.5.0,M3.5.0/1",
      "AAA3BBB,J60/2,300/2",               "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1",
  };
  for (const char* tz : rules) {
    ZoneRule z = posix(tz);
    ScopedTz scoped(tz);
    int mismatches = 0;
    for (int64_t t = utc_us(2024, 1, 1) / kUs; t < utc_us(2028, 1, 1) / kUs; t += 1800) {
      time_t tt = static_cast<time_t>(t);
      struct tm tm {};
      localtime_r(&tt, &tm);
      if (z.offset_at_utc(t * kUs) != tm.tm_gmtoff || z.abbreviation_at(t * kUs) != tm.tm_zone) {
        if (++mismatches <= 3)
          UNSCOPED_INFO(tz << " at " << format_utc(t * kUs) << ": ours "
                            << z.offset_at_utc(t * kUs) << " glibc " << tm.tm_gmtoff);
      }
    }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("local to UTC round-trips for every half hour outside the DST edges", "[time][zone]") {
  ZoneRule cet = posix("CET-1CEST,M3.5.0,M10.5.0/3");
  ZoneRule syd = posix("AEST-10AEDT,M10.1.0,M4.1.0/3");
  for (const ZoneRule* z : {&cet, &syd}) {
    int failures = 0, repeated = 0;
    for (int64_t t = utc_us(2026, 1, 1); t < utc_us(2027, 1, 1); t += 1800 * kUs) {
      CivilTime local = civil_from_utc_us(t + int64_t{z->offset_at_utc(t)} * kUs);
      int64_t back = z->local_to_utc_us(local);
      if (back == t) continue;
      // Only the later pass of a repeated hour may map elsewhere: to the instant one DST
      // difference earlier, with the same local reading.
      if (back == t - 3600 * kUs) ++repeated;
      else ++failures;
    }
    CHECK(failures == 0);
    CHECK(repeated == 2);  // 02:00 and 02:30 of the fall-back day
  }
}
