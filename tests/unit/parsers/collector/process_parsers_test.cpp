// processes/<pid>/: environ, cmdline, tz.txt, stat, fd.tsv, and the start time and zone
// finalize derives for each process.
#include <catch2/catch.hpp>
#include <string>

#include "model/zones.h"
#include "model_test_support.h"
#include "parsers/collector/process_parsers.h"
#include "parsers/collector/system_parsers.h"

using namespace triage;
using triage::test::newlines;
using triage::test::run_kind;

namespace {
using namespace std::string_literals;

const std::string kStat =
    "4242 (python3 (w) 1)) S 4200 4242 4200 34816 4242 4194560 12345 0 0 0 1500 300 0 0 20 0 57 "
    "0 6543210 12345678 2345 18446744073709551615 1 1 0 0 0 0 0 16781312 17638 0 0 0 17 3 0 0 0 0 0\n";
}  // namespace

TEST_CASE("pid from the entry path", "[process]") {
  CHECK(pid_from_entry_path("processes/4242/environ") == 4242);
  CHECK(pid_from_entry_path("ascend-bundle-n-20260301T120000Z/processes/7/stat") == 7);
  CHECK_FALSE(pid_from_entry_path("processes/abc/environ"));
  CHECK_FALSE(pid_from_entry_path("processes/0/environ"));
  CHECK_FALSE(pid_from_entry_path("processes/42"));
  CHECK_FALSE(pid_from_entry_path("myprocesses/42/environ"));
  CHECK_FALSE(pid_from_entry_path("environ"));
}

TEST_CASE("environ: NUL-separated records", "[process][environ]") {
  const std::string data =
      "PATH=/usr/bin\0ASCEND_HOME_PATH=/usr/local/Ascend/ascend-toolkit/8.5.0\0"
      "LD_LIBRARY_PATH=/a:/b\0OPTS=a=b=c\0MULTI=line1\nline2\0TOKEN=<redacted>\0"
      "\0noequals\0EMPTY=\0"s;
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::proc_environ, "processes/4242/environ", data, facts);
  CHECK(stats.lines == newlines(data) + 1);  // physical lines: one newline inside a value
  CHECK(stats.variant == "nul-separated");
  CHECK(stats.parsed == 7);
  CHECK(stats.unrecognised == 1);  // the empty record
  CHECK(stats.malformed == 1);     // "noequals"
  CHECK(stats.samples_of_malformed.at(0).line == 2);
  const ProcessInfo& p = facts.processes.by_pid.at(4242);
  CHECK(p.pid == 4242);
  CHECK(p.has_environ);
  CHECK(*p.env("ASCEND_HOME_PATH") == "/usr/local/Ascend/ascend-toolkit/8.5.0");
  CHECK(*p.env("OPTS") == "a=b=c");
  CHECK(*p.env("MULTI") == "line1\nline2");
  CHECK(*p.env("TOKEN") == "<redacted>");
  CHECK(*p.env("EMPTY") == "");
  CHECK(p.env("noequals") == nullptr);
}

TEST_CASE("environ: pasted one per line, tool error, no pid", "[process][environ]") {
  const std::string pasted = "PATH=/usr/bin\r\nASCEND_LAUNCH_BLOCKING=1\n\nTASK_QUEUE_ENABLE=0\n";
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::proc_environ, "processes/9/environ", pasted, facts);
  CHECK(stats.variant == "newline-separated");
  CHECK(stats.lines == newlines(pasted));
  CHECK(stats.parsed == 3);
  CHECK(stats.unrecognised == 1);
  CHECK(*facts.processes.by_pid.at(9).env("PATH") == "/usr/bin");
  CHECK(*facts.processes.by_pid.at(9).env("TASK_QUEUE_ENABLE") == "0");

  BundleFacts f2;
  ParseStats s2 = run_kind(SourceKind::proc_environ, "processes/9/environ",
                           "cat: /proc/9/environ: Permission denied\n", f2);
  CHECK(s2.not_collected == "permission: cat: /proc/9/environ: Permission denied");
  CHECK(s2.unrecognised == 1);
  CHECK_FALSE(f2.processes.by_pid.at(9).has_environ);

  BundleFacts f3;
  ParseStats s3 = run_kind(SourceKind::proc_environ, "loose/environ", "A=1\nB=2\n", f3);
  CHECK(s3.unrecognised == 2);
  CHECK(f3.processes.by_pid.empty());
}

TEST_CASE("cmdline: NUL-separated, pasted, from ps, empty", "[process][cmdline]") {
  BundleFacts facts;
  const std::string nul = "python3\0train.py\0--amp\0False\0\0--lr=0.1\0"s;
  ParseStats stats = run_kind(SourceKind::proc_cmdline, "processes/4242/cmdline", nul, facts);
  CHECK(stats.lines == 1);  // no newline: one unterminated line
  CHECK(stats.parsed == 6);
  CHECK(facts.processes.by_pid.at(4242).argv ==
        std::vector<std::string>{"python3", "train.py", "--amp", "False", "", "--lr=0.1"});

  const std::string pasted = "python3\ntrain.py\n--workers\n0\n";
  BundleFacts f2;
  ParseStats s2 = run_kind(SourceKind::proc_cmdline, "processes/5/cmdline", pasted, f2);
  CHECK(s2.variant == "newline-separated");
  CHECK(s2.lines == newlines(pasted));
  CHECK(s2.parsed == 4);
  CHECK(f2.processes.by_pid.at(5).argv == std::vector<std::string>{"python3", "train.py", "--workers", "0"});

  BundleFacts f3;
  ParseStats s3 = run_kind(SourceKind::proc_cmdline, "processes/6/cmdline",
                           "python3 -u train.py  --batch 1\n", f3);
  CHECK(s3.variant == "blank-separated");
  CHECK(f3.processes.by_pid.at(6).argv ==
        std::vector<std::string>{"python3", "-u", "train.py", "--batch", "1"});
  CHECK(f3.processes.by_pid.at(6).notes.size() == 1);

  BundleFacts f4;
  ParseStats s4 = run_kind(SourceKind::proc_cmdline, "processes/2/cmdline", "", f4);
  CHECK(s4.lines == 0);
  CHECK(f4.processes.by_pid.at(2).has_cmdline);
  CHECK(f4.processes.by_pid.at(2).argv.empty());
  CHECK(f4.processes.by_pid.at(2).notes == std::vector<std::string>{"empty cmdline: a kernel thread or a zombie"});

  BundleFacts f5;
  CHECK(run_kind(SourceKind::proc_cmdline, "processes/2/cmdline",
                 "cat: /proc/2/cmdline: No such file or directory\n", f5)
            .not_collected.rfind("source_missing: ", 0) == 0);
}

TEST_CASE("stat: comm with blanks and parentheses; start ticks", "[process][stat]") {
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::proc_stat, "processes/4242/stat", kStat, facts);
  CHECK(stats.lines == newlines(kStat));
  CHECK(stats.parsed == 1);
  const ProcessInfo& p = facts.processes.by_pid.at(4242);
  REQUIRE(p.stat);
  CHECK(p.stat->comm == "python3 (w) 1)");
  CHECK(p.stat->state == 'S');
  CHECK(p.stat->ppid == 4200);
  CHECK(p.stat->num_threads == 57);
  CHECK(p.stat->start_ticks == 6543210);
  CHECK(p.notes.empty());

  BundleFacts f2;
  ParseStats s2 = run_kind(SourceKind::proc_stat, "processes/1/stat", "1 (init) S 0 1\n", f2);
  CHECK(s2.malformed == 1);
  CHECK_FALSE(f2.processes.by_pid.at(1).stat);

  BundleFacts f3;
  run_kind(SourceKind::proc_stat, "processes/99/stat", kStat, f3);
  CHECK(f3.processes.by_pid.at(99).notes == std::vector<std::string>{"stat names pid 4242, its path pid 99"});

  BundleFacts f4;
  CHECK(run_kind(SourceKind::proc_stat, "processes/1/stat", "cat: /proc/1/stat: No such file or directory", f4)
            .not_collected.rfind("source_missing: ", 0) == 0);
}

TEST_CASE("fd.tsv: descriptors and targets", "[process][fd]") {
  const std::string data =
      "fd\ttarget\n"
      "0\t/dev/null\n"
      "5\t/dev/davinci0\n"
      "7\t/root/ascend/log/debug/plog/plog-4242_20260301120000000.log\n"
      "9\tsocket:[123456]\n"
      "x\t/bad\n"
      "11\t\n";
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::proc_fd_tsv, "processes/4242/fd.tsv", data, facts);
  CHECK(stats.lines == newlines(data));
  CHECK(stats.parsed == 5);  // header + 4
  CHECK(stats.malformed == 2);
  const ProcessInfo& p = facts.processes.by_pid.at(4242);
  REQUIRE(p.fds.size() == 4);
  CHECK(p.fds[1].fd == 5);
  CHECK(p.fds[1].target == "/dev/davinci0");

  BundleFacts f2;
  ParseStats s2 = run_kind(SourceKind::proc_fd_tsv, "processes/4242/fd.tsv", "num\tpath\n1\t/x\n", f2);
  CHECK(s2.unrecognised == 1);
  CHECK(f2.processes.by_pid.at(4242).notes == std::vector<std::string>{"fd.tsv has no fd/target columns"});

  BundleFacts f3;
  CHECK(run_kind(SourceKind::proc_fd_tsv, "processes/1/fd.tsv", "ls: cannot open directory '/proc/1/fd': Permission denied\n", f3)
            .not_collected.rfind("permission: ", 0) == 0);
}

TEST_CASE("tz.txt: values kept, damage counted", "[process][tz]") {
  const std::string data = "TZ=\ntimezone=Asia/Shanghai\ntz_posix=CST-8\nutc_offset=+0800\nlang=C\n";
  BundleFacts facts;
  ParseStats stats = run_kind(SourceKind::proc_tz_txt, "processes/4242/tz.txt", data, facts);
  CHECK(stats.lines == newlines(data));
  CHECK(stats.parsed == 4);
  CHECK(stats.unrecognised == 1);
  const ProcessInfo& p = facts.processes.by_pid.at(4242);
  REQUIRE(p.tz_file);
  CHECK(p.tz_file->tz_env.empty());
  CHECK(p.tz_file->timezone == "Asia/Shanghai");
  CHECK(p.tz_file->tz_posix == "CST-8");

  BundleFacts f2;
  ParseStats s2 = run_kind(SourceKind::proc_tz_txt, "processes/1/tz.txt", "tz_posix=Asia/Shanghai\nutc_offset=8\n", f2);
  CHECK(s2.malformed == 2);
}

TEST_CASE("finalize: process start time from ticks, clk_tck and btime", "[process][finalize]") {
  BundleFacts facts;
  run_kind(SourceKind::proc_stat, "processes/4242/stat", kStat, facts);
  finalize_processes(facts);
  CHECK_FALSE(facts.processes.by_pid.at(4242).start_time);
  CHECK(facts.processes.by_pid.at(4242).notes.back() == "start time unknown: no btime in system/boot.txt");

  run_kind(SourceKind::boot_txt, "system/boot.txt", "btime=1772300000\n", facts);
  facts.processes.by_pid.at(4242).notes.clear();
  finalize_processes(facts);
  const ProcessInfo& p = facts.processes.by_pid.at(4242);
  REQUIRE(p.start_time);
  CHECK(p.start_time->basis == TimeBasis::boot_relative);
  CHECK(p.start_time->utc_us == int64_t{1772300000 + 65432} * 1000000 + 100000);
  CHECK(p.start_time->original == "starttime=6543210");
  CHECK(p.notes == std::vector<std::string>{"start time assumes clk_tck=100 (none in system/time.txt)"});

  run_kind(SourceKind::time_txt, "system/time.txt", "clk_tck=250\n", facts);
  finalize_processes(facts);
  CHECK(facts.processes.by_pid.at(4242).start_time->utc_us ==
        int64_t{1772300000 + 26172} * 1000000 + 840000);  // 6543210 / 250 = 26172.84
}

TEST_CASE("finalize: process zone precedence", "[process][finalize][zones]") {
  AnalyzeOptions options;
  auto zone_after = [&](const std::string& tz_txt, const std::string& environ = {},
                        bool host_zone = true) {
    BundleFacts facts;
    if (!tz_txt.empty()) run_kind(SourceKind::proc_tz_txt, "processes/3/tz.txt", tz_txt, facts);
    if (!environ.empty()) run_kind(SourceKind::proc_environ, "processes/3/environ", environ, facts);
    facts.processes.by_pid[3].pid = 3;
    if (host_zone) {
      facts.system.host_zone = ZoneRule::from_posix("CST-8");
      facts.system.host_zone_origin = "system/time.txt tz_posix";
    }
    finalize_processes(facts);
    return facts;
  };
  // TZ holding a POSIX rule wins: it is what the process's libc uses.
  BundleFacts a = zone_after("TZ=UTC0\ntz_posix=CST-8\n");
  CHECK(a.processes.by_pid[3].zone_origin == "processes/3/tz.txt TZ=UTC0");
  CHECK(a.processes.by_pid[3].zone->offset_at_utc(0) == 0);
  CHECK(zone_for_process(a, 3, options)->basis == TimeBasis::local_known_zone);
  // TZ unset: the process's /etc/localtime rule.
  BundleFacts b = zone_after("TZ=\ntz_posix=JST-9\nutc_offset=+0900\n");
  CHECK(b.processes.by_pid[3].zone_origin == "processes/3/tz.txt tz_posix");
  CHECK(b.processes.by_pid[3].zone->offset_at_utc(0) == 9 * 3600);
  // Only utc_offset: a fixed offset.
  BundleFacts c = zone_after("utc_offset=-0300\n");
  CHECK(c.processes.by_pid[3].zone_origin == "processes/3/tz.txt utc_offset (fixed offset; DST rules unknown)");
  // TZ names the zone its localtime is: fine.
  BundleFacts d = zone_after("TZ=Asia/Tokyo\ntimezone=Asia/Tokyo\ntz_posix=JST-9\n");
  CHECK(d.processes.by_pid[3].zone_origin == "processes/3/tz.txt tz_posix (TZ=Asia/Tokyo names the same zone)");
  CHECK_FALSE(d.processes.by_pid[3].zone_assumed);
  // TZ names another zone: its localtime is used, as an assumption.
  BundleFacts e = zone_after("TZ=Europe/Berlin\ntimezone=Asia/Shanghai\ntz_posix=CST-8\n");
  const ProcessInfo& pe = e.processes.by_pid[3];
  CHECK(pe.zone_assumed);
  CHECK(pe.zone_origin == "processes/3/tz.txt tz_posix (assumed: TZ=Europe/Berlin unreadable)");
  CHECK(zone_for_process(e, 3, options)->basis == TimeBasis::local_assumed_zone);
  // TZ names a zone and nothing else is known of the process: the host's zone, assumed.
  BundleFacts f = zone_after("", "TZ=Europe/Berlin\0A=1\0"s);
  CHECK(f.processes.by_pid[3].zone_assumed);
  CHECK(f.processes.by_pid[3].zone_origin ==
        "system/time.txt tz_posix (assumed: TZ=Europe/Berlin unreadable)");
  // ...and with no host zone, no zone (the host/--utc-offset precedence applies).
  BundleFacts g = zone_after("", "TZ=Europe/Berlin\0"s, false);
  CHECK_FALSE(g.processes.by_pid[3].zone);
  CHECK_FALSE(zone_for_process(g, 3, options));
  // TZ from environ when there is no tz.txt.
  BundleFacts h = zone_after("", "TZ=<+08>-8\0"s);
  CHECK(h.processes.by_pid[3].zone_origin == "processes/3/environ TZ=<+08>-8");
  // Nothing of the process: no process zone; the host's applies.
  BundleFacts i = zone_after("", "A=1\0"s);
  CHECK_FALSE(i.processes.by_pid[3].zone);
  CHECK(zone_for_process(i, 3, options)->origin == "system/time.txt tz_posix");
}
