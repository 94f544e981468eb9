// TZif files: the POSIX footer is the zone; v1 files and empty footers fall back to the
// last transition's offset and say so; damaged files are refused with a reason.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

#include "model/time.h"

using namespace triage;

namespace {

std::string fixture_path(const char* name) {
  return std::string(TEST_DATA_DIR) + "/fixtures/tzif/" + name;
}

std::string read_fixture(const char* name) {
  std::ifstream in(fixture_path(name), std::ios::binary);
  REQUIRE(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int64_t utc_us(int y, int mo, int d, int h = 0) {
  return civil_to_epoch_us(CivilTime{y, mo, d, h, 0, 0, 0});
}

uint32_t be32(const std::string& b, size_t at) {
  auto u = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(b[at + k])); };
  return (u(0) << 24) | (u(1) << 16) | (u(2) << 8) | u(3);
}

// Size of the version 1 header plus data block.
size_t v1_size(const std::string& b) {
  uint64_t isut = be32(b, 20), isstd = be32(b, 24), leap = be32(b, 28), timec = be32(b, 32),
           typec = be32(b, 36), charc = be32(b, 40);
  return 44 + timec * 5 + typec * 6 + charc + leap * 8 + isstd + isut;
}

}  // namespace

TEST_CASE("TZif v2 files give their POSIX footer", "[time][tzif]") {
  struct Case {
    const char* file;
    const char* footer;
    int winter, summer;  // offsets on 15 January and 15 July 2026
  } cases[] = {
      {"Asia_Shanghai.tzif", "CST-8", 8 * 3600, 8 * 3600},
      {"Europe_Berlin.tzif", "CET-1CEST,M3.5.0,M10.5.0/3", 3600, 7200},
      {"UTC.tzif", "UTC0", 0, 0},
      {"Australia_Sydney.tzif", "AEST-10AEDT,M10.1.0,M4.1.0/3", 11 * 3600, 10 * 3600},
  };
  for (const auto& c : cases) {
    INFO(c.file);
    TzifZone z = parse_tzif(read_fixture(c.file));
    REQUIRE(z.error.empty());
    CHECK(z.version == 2);
    CHECK(z.footer == c.footer);
    CHECK_FALSE(z.from_last_transition);
    CHECK(z.note.empty());
    REQUIRE(z.zone);
    CHECK(z.zone->description() == c.footer);
    CHECK(z.zone->offset_at_utc(utc_us(2026, 1, 15)) == c.winter);
    CHECK(z.zone->offset_at_utc(utc_us(2026, 7, 15)) == c.summer);
  }
}

TEST_CASE("TZif footer agrees with glibc reading the same file, 2020-2030", "[time][tzif]") {
  for (const char* name : {"Europe_Berlin.tzif", "Australia_Sydney.tzif", "Asia_Shanghai.tzif"}) {
    TzifZone z = parse_tzif(read_fixture(name));
    REQUIRE(z.zone);
    std::string old;
    bool had = std::getenv("TZ") != nullptr;
    if (had) old = std::getenv("TZ");
    std::string tz = ":";
    tz += fixture_path(name);  // (":" + string) trips a false g++ 12 -Wrestrict warning
    setenv("TZ", tz.c_str(), 1);
    tzset();
    int mismatches = 0;
    for (int64_t t = utc_us(2020, 1, 1) / 1000000; t < utc_us(2031, 1, 1) / 1000000; t += 3600) {
      time_t tt = static_cast<time_t>(t);
      struct tm tm {};
      localtime_r(&tt, &tm);
      mismatches += z.zone->offset_at_utc(t * 1000000) != tm.tm_gmtoff;
    }
    if (had) setenv("TZ", old.c_str(), 1);
    else unsetenv("TZ");
    tzset();
    INFO(name);
    CHECK(mismatches == 0);
  }
}

TEST_CASE("TZif version 1 falls back to the last transition and says so", "[time][tzif]") {
  std::string b = read_fixture("Asia_Shanghai.tzif");
  std::string v1 = b.substr(0, v1_size(b));
  v1[4] = '\0';
  TzifZone z = parse_tzif(v1);
  REQUIRE(z.error.empty());
  CHECK(z.version == 1);
  CHECK(z.from_last_transition);
  REQUIRE(z.zone);
  CHECK(z.zone->offset_at_utc(utc_us(2026, 7, 1)) == 8 * 3600);
  CHECK(z.zone->abbreviation_at(0) == "CST");
  CHECK_FALSE(z.zone->has_dst());
  CHECK(z.note.find("version 1") != std::string::npos);
  CHECK(z.note.find("+08:00") != std::string::npos);
  CHECK(z.note.find("DST rules unknown") != std::string::npos);
}

TEST_CASE("TZif with an empty footer falls back to the last transition", "[time][tzif]") {
  std::string b = read_fixture("Europe_Berlin.tzif");
  REQUIRE(b.size() > 30);
  size_t footer_start = b.rfind('\n', b.size() - 2);
  std::string empty_footer = b.substr(0, footer_start) + "\n\n";
  TzifZone z = parse_tzif(empty_footer);
  REQUIRE(z.error.empty());
  CHECK(z.footer.empty());
  CHECK(z.from_last_transition);
  REQUIRE(z.zone);
  // Berlin's last listed transition (October 2037) is to CET.
  CHECK(z.zone->offset_at_utc(utc_us(2026, 7, 1)) == 3600);
  CHECK(z.note.find("footer is empty") != std::string::npos);

  std::string bad_footer = b.substr(0, footer_start) + "\nEurope/Berlin\n";
  TzifZone y = parse_tzif(bad_footer);
  REQUIRE(y.zone);
  CHECK(y.from_last_transition);
  CHECK(y.note.find("'Europe/Berlin'") != std::string::npos);
}

TEST_CASE("damaged TZif files are refused with a reason", "[time][tzif]") {
  std::string b = read_fixture("Europe_Berlin.tzif");
  CHECK(parse_tzif("").error == "not a TZif file (no TZif magic)");
  CHECK(parse_tzif("cat: /etc/localtime: No such file or directory\n").error ==
        "not a TZif file (no TZif magic)");
  CHECK(parse_tzif(b.substr(0, 100)).error == "TZif file cut short (first data block)");
  CHECK(parse_tzif(b.substr(0, v1_size(b) + 10)).error == "TZif file cut short (second header)");
  CHECK(parse_tzif(b.substr(0, v1_size(b) + 200)).error == "TZif file cut short (second data block)");
  std::string bad_version = b;
  bad_version[4] = 'x';
  CHECK(parse_tzif(bad_version).error == "unknown TZif version byte 0x78");
  std::string huge = b;
  huge[36] = '\x7f';  // typecnt of the first header
  CHECK(parse_tzif(huge).error == "TZif header counts out of range");
  for (size_t cut = 0; cut < b.size(); cut += 7) {  // never crashes on any prefix
    TzifZone z = parse_tzif(b.substr(0, cut));
    CHECK((z.zone.has_value() || !z.error.empty()));
  }
}
