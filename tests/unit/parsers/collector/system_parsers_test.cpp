// system/: uname.txt, os-release, cmdline, time.txt, localtime.tzif, boot.txt, and the host
// facts finalize derives from them (name, collection time, zone).
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "model/zones.h"
#include "model_test_support.h"
#include "parsers/collector/system_parsers.h"

using namespace triage;
using triage::test::newlines;
using triage::test::run_kind;

namespace {

std::string read_tzif(const char* name) {
  std::ifstream in(std::string(TEST_DATA_DIR) + "/fixtures/tzif/" + name, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kTimeTxt =
    "epoch=1772366400\n"
    "utc=2026-03-01T12:00:00Z\n"
    "local=2026-03-01T20:00:00+08:00\n"
    "utc_offset=+0800\n"
    "timezone=Asia/Shanghai\n"
    "tz_posix=CST-8\n"
    "clk_tck=100\n";

}  // namespace

TEST_CASE("uname -a: fields found by name, version with blanks", "[system][uname]") {
  struct Case {
    const char* line;
    const char* node;
    const char* release;
    const char* version;
    const char* machine;
  } cases[] = {
      {"Linux node-07 5.10.0-136.12.0.86.oe2203sp1.aarch64 #1 SMP Tue Dec 27 17:50:15 CST 2022 "
       "aarch64 aarch64 aarch64 GNU/Linux\n",
       "node-07", "5.10.0-136.12.0.86.oe2203sp1.aarch64", "#1 SMP Tue Dec 27 17:50:15 CST 2022",
       "aarch64"},
      {"Linux gpu01 5.15.0-91-generic #101-Ubuntu SMP Tue Nov 14 13:29:11 UTC 2023 x86_64 x86_64 "
       "x86_64 GNU/Linux\n",
       "gpu01", "5.15.0-91-generic", "#101-Ubuntu SMP Tue Nov 14 13:29:11 UTC 2023", "x86_64"},
      {"Linux edge 4.19.90 #1 SMP Thu Jan 1 00:00:00 CST 2020 aarch64 GNU/Linux", "edge", "4.19.90",
       "#1 SMP Thu Jan 1 00:00:00 CST 2020", "aarch64"},
      {"Linux odd 6.1.0 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) unknownarch GNU/Linux\n",
       "odd", "6.1.0", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) unknownarch", ""},
  };
  for (const auto& c : cases) {
    INFO(c.line);
    BundleFacts facts;
    ParseStats stats = run_kind(SourceKind::uname, "system/uname.txt", c.line, facts);
    REQUIRE(facts.system.uname);
    const UnameInfo& u = *facts.system.uname;
    CHECK(u.kernel_name == "Linux");
    CHECK(u.nodename == c.node);
    CHECK(u.release == c.release);
    CHECK(u.version == c.version);
    CHECK(u.machine == c.machine);
    CHECK(u.os == "GNU/Linux");
    CHECK(facts.system.kernel_release == c.release);
    CHECK(stats.parsed == 1);
    CHECK(stats.lines == 1);
    CHECK(u.evidence.line == 1);
  }
}

TEST_CASE("uname: malformed, extra lines, tool error", "[system][uname]") {
  BundleFacts facts;
  std::string two = "Linux\nLinux n 5.10 #1 aarch64\nsecond line\n\n";
  ParseStats stats = run_kind(SourceKind::uname, "system/uname.txt", two, facts);
  CHECK(stats.lines == newlines(two));
  CHECK(stats.malformed == 1);
  CHECK(stats.parsed == 2);  // the uname line and the blank one
  CHECK(stats.unrecognised == 1);
  REQUIRE(facts.system.uname);
  CHECK(facts.system.uname->nodename == "n");
  CHECK(stats.samples_of_malformed.at(0).line == 1);

  BundleFacts f2;
  ParseStats s2 = run_kind(SourceKind::uname, "system/uname.txt", "bash: uname: command not found\n", f2);
  CHECK(s2.not_collected == "tool_missing: bash: uname: command not found");
  CHECK_FALSE(f2.system.uname);
  CHECK(f2.system.kernel_release.empty());
}

TEST_CASE("os-release: quoting, comments, damage", "[system][os-release]") {
  const std::string text =
      "# openEuler\n"
      "NAME=\"openEuler\"\n"
      "VERSION=\"22.03 (LTS-SP1)\"\n"
      "ID=openEuler\n"
      "VERSION_ID='22.03'\n"
      "PRETTY_NAME=\"openEuler 22.03 \\\"LTS\\\" \\$x\"\n"
      "\n"
      "BROKEN=\"unterminated\n"
      "not a key value line\n"
      "BAD KEY=1\n"
      "UNQUOTED=has space\n";
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::os_release, "system/os-release", text, facts);
  CHECK(stats.lines == newlines(text));
  CHECK(stats.parsed == 7);
  CHECK(stats.malformed == 4);
  const SystemFacts& s = facts.system;
  CHECK(*s.os_release_value("NAME") == "openEuler");
  CHECK(*s.os_release_value("VERSION") == "22.03 (LTS-SP1)");
  CHECK(*s.os_release_value("ID") == "openEuler");
  CHECK(*s.os_release_value("VERSION_ID") == "22.03");
  CHECK(*s.os_release_value("PRETTY_NAME") == "openEuler 22.03 \"LTS\" $x");
  CHECK(s.os_release_value("BROKEN") == nullptr);

  BundleFacts f2;
  ParseStats s2 = run_kind(SourceKind::os_release, "system/os-release",
                           "cat: /etc/os-release: No such file or directory\n", f2);
  CHECK(s2.not_collected.rfind("source_missing: ", 0) == 0);
  CHECK(f2.system.os_release.empty());
}

TEST_CASE("kernel cmdline: parameters split, quotes kept together", "[system][cmdline]") {
  const std::string text =
      "BOOT_IMAGE=/vmlinuz-5.10.0 root=UUID=0a1b ro  iommu.passthrough=1 "
      "dyndbg=\"file drv.c +p\" quiet\n";
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::kernel_cmdline, "system/cmdline", text, facts);
  CHECK(stats.lines == newlines(text));
  CHECK(stats.parsed == 1);
  REQUIRE(facts.system.kernel_cmdline);
  CHECK(facts.system.kernel_cmdline_args ==
        std::vector<std::string>{"BOOT_IMAGE=/vmlinuz-5.10.0", "root=UUID=0a1b", "ro",
                                 "iommu.passthrough=1", "dyndbg=file drv.c +p", "quiet"});
  BundleFacts f2;
  ParseStats s2 = run_kind(SourceKind::kernel_cmdline, "system/cmdline", "a=\"open\nextra\n", f2);
  CHECK(s2.malformed == 1);
  CHECK(s2.unrecognised == 1);
  CHECK(f2.system.kernel_cmdline_args == std::vector<std::string>{"a=open"});
  BundleFacts f3;
  CHECK(run_kind(SourceKind::kernel_cmdline, "system/cmdline", "cat: /proc/cmdline: Permission denied", f3)
            .not_collected == "permission: cat: /proc/cmdline: Permission denied");
}

TEST_CASE("time.txt: every key, consistent", "[system][time]") {
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::time_txt, "system/time.txt", kTimeTxt, facts);
  CHECK(stats.lines == newlines(kTimeTxt));
  CHECK(stats.parsed == 7);
  CHECK(stats.malformed + stats.unrecognised == 0);
  REQUIRE(facts.system.time_file);
  const TimeFile& t = *facts.system.time_file;
  CHECK(t.epoch == 1772366400);
  CHECK(t.utc_offset_seconds == 8 * 3600);
  CHECK(t.timezone == "Asia/Shanghai");
  REQUIRE(t.tz_posix_zone);
  CHECK(t.tz_posix_zone->description() == "CST-8");
  CHECK(t.clk_tck == 100);
  CHECK(facts.system.clk_tck == 100);
  CHECK(facts.system.notes.empty());
}

TEST_CASE("time.txt: damage, unknown keys, contradictions", "[system][time]") {
  const std::string text =
      "epoch=1772366400\n"
      "utc=2026-03-01T13:00:00Z\n"        // an hour off epoch
      "local=yesterday\n"                  // not a time
      "utc_offset=+0900\n"                 // contradicts tz_posix
      "tz_posix=CST-8\n"
      "clk_tck=0\n"
      "hwclock=UTC\n"                      // unknown key
      "garbage\n";
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::time_txt, "system/time.txt", text, facts);
  CHECK(stats.lines == newlines(text));
  CHECK(stats.parsed == 4);
  CHECK(stats.malformed == 3);
  CHECK(stats.unrecognised == 1);
  REQUIRE(facts.system.notes.size() == 2);
  CHECK(facts.system.notes[0] ==
        "system/time.txt: utc=2026-03-01T13:00:00Z disagrees with epoch=1772366400 (2026-03-01T12:00:00Z)");
  CHECK(facts.system.notes[1] ==
        "system/time.txt: tz_posix=CST-8 gives +08:00 at the collection time, utc_offset=+0900 says +09:00");

  BundleFacts f2;
  run_kind(SourceKind::time_txt, "system/time.txt", "epoch=1\ntz_posix=Asia/Shanghai\n", f2);
  CHECK_FALSE(f2.system.time_file->tz_posix_zone);
  CHECK(f2.system.notes.back() ==
        "system/time.txt: tz_posix=Asia/Shanghai is not a POSIX TZ rule this analyzer understands");

  BundleFacts f3;
  ParseStats s3 = run_kind(SourceKind::time_txt, "system/time.txt", "sh: date: not found\n", f3);
  CHECK(s3.not_collected == "tool_missing: sh: date: not found");
  CHECK_FALSE(f3.system.time_file);
}

TEST_CASE("localtime.tzif: host and process copies", "[system][tzif]") {
  std::string berlin = read_tzif("Europe_Berlin.tzif");
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::localtime_tzif, "system/localtime.tzif", berlin, facts);
  CHECK(stats.lines == newlines(berlin) + (berlin.back() != '\n'));
  CHECK(stats.parsed == stats.lines);
  CHECK(stats.variant == "tzif-v2");
  REQUIRE(facts.system.localtime_tzif);
  CHECK(facts.system.localtime_tzif->footer == "CET-1CEST,M3.5.0,M10.5.0/3");
  CHECK(facts.system.localtime_tzif->zone);

  run_kind(SourceKind::localtime_tzif, "processes/77/localtime.tzif", read_tzif("UTC.tzif"), facts);
  REQUIRE(facts.processes.by_pid.count(77));
  CHECK(facts.processes.by_pid[77].localtime_tzif->footer == "UTC0");
  CHECK(facts.system.localtime_tzif->footer == "CET-1CEST,M3.5.0,M10.5.0/3");

  BundleFacts f2;
  ParseStats s2 = run_kind(SourceKind::localtime_tzif, "system/localtime.tzif",
                           "cp: cannot stat '/etc/localtime': No such file or directory\n", f2);
  CHECK(s2.not_collected.rfind("source_missing: ", 0) == 0);
  CHECK_FALSE(f2.system.localtime_tzif);

  BundleFacts f3;
  ParseStats s3 = run_kind(SourceKind::localtime_tzif, "system/localtime.tzif", berlin.substr(0, 300), f3);
  CHECK(s3.malformed == s3.lines);
  CHECK(s3.samples_of_malformed.at(0).excerpt == "TZif file cut short (first data block)");
  REQUIRE(f3.system.localtime_tzif);
  CHECK_FALSE(f3.system.localtime_tzif->zone);
}

TEST_CASE("boot.txt: boot id, btime, uptime", "[system][boot]") {
  const std::string text =
      "boot_id=3F1C2A9E-8b7d-4c6e-9f01-23456789abcd\n"
      "btime=1772300000\n"
      "uptime_s=66400.52\n"
      "kernel=5.10\n";
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::boot_txt, "system/boot.txt", text, facts);
  CHECK(stats.lines == newlines(text));
  CHECK(stats.parsed == 3);
  CHECK(stats.unrecognised == 1);
  CHECK(facts.system.boot_id == "3f1c2a9e-8b7d-4c6e-9f01-23456789abcd");
  CHECK(facts.system.btime == 1772300000);
  CHECK(facts.system.uptime_us == int64_t{66400520000});

  const std::string bad = "boot_id=3f1c2a9e8b7d4c6e9f0123456789abcd\nboot_id=xyz\nbtime=-5\nuptime_s=abc\n";
  BundleFacts f2;
  ParseStats s2 = run_kind(SourceKind::boot_txt, "system/boot.txt", bad, f2);
  CHECK(s2.parsed == 1);
  CHECK(s2.malformed == 3);
  CHECK(f2.system.boot_id == "3f1c2a9e-8b7d-4c6e-9f01-23456789abcd");  // dashes added
  CHECK_FALSE(f2.system.btime);

  BundleFacts f3;
  CHECK(run_kind(SourceKind::boot_txt, "system/boot.txt",
                 "cat: /proc/sys/kernel/random/boot_id: Operation not permitted\n", f3)
            .not_collected.rfind("permission: ", 0) == 0);
}

TEST_CASE("finalize: host name, collection time and host zone by precedence", "[system][finalize]") {
  AnalyzeOptions options;
  BundleFacts facts;
  run_kind(SourceKind::uname, "system/uname.txt", "Linux uname-host 5.10 #1 SMP aarch64 GNU/Linux\n", facts);
  run_kind(SourceKind::localtime_tzif, "system/localtime.tzif", read_tzif("Europe_Berlin.tzif"), facts);
  finalize_system(facts, options);
  CHECK(facts.system.hostname == "uname-host");
  CHECK(facts.system.hostname_origin == "system/uname.txt");
  CHECK(facts.host == "uname-host");
  CHECK(facts.system.host_zone_origin == "system/localtime.tzif");
  CHECK(facts.system.host_zone->description() == "CET-1CEST,M3.5.0,M10.5.0/3");
  CHECK_FALSE(facts.system.collected_at_us);

  // time.txt's tz_posix wins over the TZif footer; the manifest's host over uname.
  facts.manifest.host = "node-07";
  facts.manifest.collected_at_utc_us = int64_t{1772366300} * 1000000;
  run_kind(SourceKind::time_txt, "system/time.txt", kTimeTxt, facts);
  finalize_system(facts, options);
  CHECK(facts.host == "node-07");
  CHECK(facts.system.hostname_origin == "manifest.json host");
  CHECK(facts.system.host_zone_origin == "system/time.txt tz_posix (Asia/Shanghai)");
  CHECK(facts.system.collected_at_us == int64_t{1772366300} * 1000000);
  CHECK(facts.system.collected_at_origin == "manifest.json collected_at_utc");
  CHECK(facts.system.notes == std::vector<std::string>{
      "manifest.json host is node-07, uname node name uname-host",
      "system/time.txt tz_posix=CST-8 but system/localtime.tzif's footer is "
      "CET-1CEST,M3.5.0,M10.5.0/3: used tz_posix"});
  // The chosen zone is what a process without its own zone gets.
  auto zone = zone_for_process(facts, 1, options);
  REQUIRE(zone);
  CHECK(zone->origin == "system/time.txt tz_posix (Asia/Shanghai)");

  // Only utc_offset: a fixed offset, said so.
  BundleFacts f2;
  run_kind(SourceKind::time_txt, "system/time.txt", "epoch=1772366400\nutc_offset=+0530\n", f2);
  finalize_system(f2, options);
  CHECK(f2.system.host_zone->offset_at_utc(0) == 19800);
  CHECK(f2.system.host_zone_origin == "system/time.txt utc_offset (fixed offset; DST rules unknown)");
  CHECK(f2.system.collected_at_origin == "system/time.txt epoch");

  // A v1 TZif: the fallback is used and noted.
  std::string b = read_tzif("Asia_Shanghai.tzif");
  BundleFacts f3;
  std::string v1 = b.substr(0, 44 + 29 * 5 + 3 * 6 + 12);
  v1[4] = '\0';
  run_kind(SourceKind::localtime_tzif, "system/localtime.tzif", v1, f3);
  finalize_system(f3, options);
  CHECK(f3.system.host_zone_origin == "system/localtime.tzif (last transition; DST rules unknown)");
  CHECK(f3.system.host_zone->offset_at_utc(0) == 8 * 3600);
  REQUIRE(f3.system.notes.size() == 1);
  CHECK(f3.system.notes[0].rfind("system/localtime.tzif: a version 1 TZif file has no POSIX footer", 0) == 0);
}

// Fuzzing found epoch= values whose microseconds overflow int64 (fuzz/crashes/parser/).
TEST_CASE("time.txt: an epoch past year 9999 is malformed, not multiplied", "[system][time]") {
  for (const char* text : {"epoch=178902246589022465\nutc=2025-09-10T06:41:05Z\n",
                           "epoch=-9223372036854775808\nutc=2025-09-10T06:41:05Z\n",
                           "epoch=253402300800\n"}) {
    INFO(text);
    BundleFacts facts;
    ParseStats stats = run_kind(SourceKind::time_txt, "system/time.txt", text, facts);
    CHECK(stats.malformed == 1);
    REQUIRE(facts.system.time_file);
    CHECK_FALSE(facts.system.time_file->epoch);
    CHECK(facts.system.notes.empty());
  }
  BundleFacts last;
  run_kind(SourceKind::time_txt, "system/time.txt", "epoch=253402300799\n", last);
  REQUIRE(last.system.time_file);
  CHECK(last.system.time_file->epoch == 253402300799);
}
