// "In short" (correlator/passes/verdict_reply.h): at most five lines of 98 columns, what
// failed, where, when, the next action in words, what is not proven when it fits.
#include <catch2/catch.hpp>

#include "correlator/passes/reply_places.h"
#include "correlator/passes/verdict_reply.h"
#include "model/strings.h"
#include "model/time.h"

using namespace triage;

namespace {

void check_fits(const std::string& reply) {
  std::vector<std::string_view> lines = split(reply, '\n');
  CHECK(lines.size() <= kReplyLines);
  for (auto l : lines) CHECK(l.size() <= kReplyColumns);
}

}  // namespace

TEST_CASE("reply: cause, where, when, next action in words, limits", "[verdict][reply]") {
  std::vector<Finding> findings(3);
  findings[0].id = "module-provenance/two-sets";
  findings[0].title = "Two module sets";
  findings[1].id = "stream-stall";
  findings[1].title = "Stream 47 of pid 48213 made no progress for 1080 s (7 reports)";
  findings[1].value("pid", "48213").value("device", "0").value("first_utc", "2026-09-04T01:25:58.614493Z");
  findings[1].value("first_local", "2026-09-04T09:25:58.614493+08:00");
  findings[2].id = "stream-stall";
  findings[2].value("pid", "31544").value("device", "0").value("first_utc", "2026-09-02T07:38:31.278812Z");
  findings[2].value("first_local", "2026-09-02T15:38:31.278812+08:00");
  Verdict v;
  Hypothesis h;
  h.id = "host-driver-installation";
  h.title = "Host driver installation residue";
  h.host = "node07";
  h.confidence = Confidence::medium;
  h.supporting = {{"module-provenance/two-sets", 0, "two module sets for one kernel"}};
  h.consequences = {{"stream-stall", 1, "x"}, {"stream-stall", 2, "x"}};
  h.does_not_prove = "that the stale set caused every timeout. A container cannot repair it.";
  v.ranked.push_back(h);
  v.next_check = {"a vs b", "Compare the modules (`modinfo -n drv_pcie_host`). Then reboot.", "modinfo -n x"};
  std::string reply = verdict_reply(v, findings);
  // The failure is the latest one: pid 31544's stall two days before is another job's.
  CHECK(reply ==
        "Most likely cause: Host driver installation residue (medium confidence).\n"
        "Where: host node07, device 0, pid 48213.\n"
        "When: first at 2026-09-04 01:25:58 UTC (09:25:58 +08:00 on the host).\n"
        "Next: Compare the modules.\n"
        "Not proven: That the stale set caused every timeout.");
  check_fits(reply);
}

TEST_CASE("reply: a long next check keeps its first clause, never a command", "[verdict][reply]") {
  std::vector<Finding> findings(1);
  findings[0].id = "collective/wait-timeout";
  findings[0].severity = Severity::error;
  findings[0].evidence = {make_evidence("paste.txt", 3, 0, "[ERROR] HCCL(639,python): rank 16 timeout, device_id=0")};
  Verdict v;
  Hypothesis h;
  h.id = "collective-communication";
  h.title = "Collective communication fault: a peer rank, the links between ranks or the communicator's "
            "configuration";
  h.confidence = Confidence::high;
  h.supporting = {{"collective/wait-timeout", 0, "x"}};
  v.ranked.push_back(h);
  v.next_check.description =
      "Start with what the lines name: peer 90.90.92.240/1. Read every rank's first error and the HCCL "
      "timeouts the job set: the rank that failed or stopped first is the one to read, not the ones waiting "
      "for it, with `for r in 0 1; do grep -m1 ERROR log.$r; done`.";
  std::string reply = verdict_reply(v, findings);
  INFO(reply);
  check_fits(reply);
  CHECK(reply.find("Where: device 0, rank 16, pid 639; the lines name peer 90.90.92.240/1.") != std::string::npos);
  CHECK(reply.find("Next: Read every rank's first error") != std::string::npos);
  CHECK(reply.find("grep") == std::string::npos);
  CHECK(reply.find('`') == std::string::npos);
}

TEST_CASE("reply: insufficient evidence names the most severe thing seen; no fault says so",
          "[verdict][reply]") {
  std::vector<Finding> findings(2);
  findings[0].severity = Severity::info;
  findings[0].title = "chip";
  findings[1].severity = Severity::error;
  findings[1].title = "Stream 47 stalled";
  findings[1].value("first_local", "2026-09-04T09:25:58.614493 (zone unknown)");
  Verdict v;
  Hypothesis h;
  h.id = "insufficient-evidence";
  v.ranked.push_back(h);
  v.collect_more = {"sudo bash ascend-collect.sh --probes"};
  CHECK(verdict_reply(v, findings) ==
        "No cause named yet. Most severe seen (error): Stream 47 stalled.\n"
        "When: first at 2026-09-04 09:25:58, the host's time (the input does not say its zone).\n"
        "Next: run the collector on the host and send its bundle (the command is under \"Next check\").");
  findings.pop_back();
  CHECK(verdict_reply(v, findings) == "No fault found: nothing in what was read is at warning or above.");
  // Nothing ranked (no fault found stands alone): the reply says so, unless a warning is there.
  CHECK(verdict_reply(Verdict{}, findings) == "No fault found: nothing in what was read is at warning or above.");
  findings[0].severity = Severity::warning;
  CHECK(verdict_reply(Verdict{}, findings).empty());
}

TEST_CASE("reply: the ranks waited on the origin's host: its root rank and own failure, as fleet names them",
          "[verdict][reply]") {
  std::vector<Finding> findings(3);
  findings[0].id = "collective/peer-lost";  // a waiting rank's on the same host, listed first
  findings[0].severity = Severity::error;
  findings[0].host = "node3";
  findings[0].title = "A peer rank was lost";
  findings[0].value("pid", "62613").value("device", "0").value("first_utc", "2026-03-02T06:03:41.618000Z");
  findings[1].id = "collective/wait-root";
  findings[1].severity = Severity::error;
  findings[1].host = "node3";
  findings[1].title = "The other ranks waited on rank 7 dev 1 on node3";
  findings[1].value("waiters", "7").value("root", "rank 7 dev 1 on node3").value("root_host", "node3");
  findings[2].id = "device-exception/aicore-exception";
  findings[2].severity = Severity::error;
  findings[2].host = "node3";
  findings[2].title = "AI Core task raised an exception (process 75086)";
  findings[2].value("pid", "75086").value("device", "1").value("first_utc", "2026-03-02T06:03:10.418000Z");
  Verdict v;
  Hypothesis top;
  top.id = "insufficient-evidence";
  top.host = "node3";
  top.score = 45;
  Hypothesis runner_up;
  runner_up.id = "device-hardware";
  runner_up.host = "node3";
  runner_up.score = 20;
  runner_up.supporting = {{"device-exception/aicore-exception", 2, "x"}};
  v.ranked = {top, runner_up};
  std::string reply = verdict_reply(v, findings);
  INFO(reply);
  check_fits(reply);
  CHECK(reply.rfind("No cause named yet. 7 ranks waited on rank 7 dev 1 on node3; its failure (error): AI Core "
                    "task\nraised an exception (process 75086).\n",
                    0) == 0);
  CHECK(reply.find("Where: host node3, device 1, pid 75086.\n") != std::string::npos);  // no waiter's pid
  CHECK(reply.find("When: first at 2026-03-02 06:03:10 UTC") != std::string::npos);
  // Near misses: the root on another host than the one insufficient evidence leads, or a root
  // nobody waited on, keep the most severe thing seen and the rest of the places.
  for (auto [key, value] : {std::pair<const char*, const char*>{"host", "node2"}, {"waiters", "0"}}) {
    std::vector<Finding> other = findings;
    if (std::string_view(key) == "host")
      other[1].host = value;
    else
      other[1].values[0].second = value;
    std::string r = verdict_reply(v, other);
    INFO(r);
    CHECK(r.rfind("No cause named yet. Most severe seen (error): A peer rank was lost.\n", 0) == 0);
    CHECK(r.find("pids 75086 and 62613") != std::string::npos);  // the waiting rank too
  }
}

TEST_CASE("reply places: device, rank and pid words of Ascend lines, and their times", "[verdict][reply]") {
  std::vector<std::string> d, r, p;
  // Verbatim (tests/data/real): torch_npu's OOM, the runner's device fault, HCCL's rank table.
  scan_places("RuntimeError: NPU out of memory. Tried to allocate 386.00 MiB (NPU 2; 60.97 GiB total capacity;", d, r,
              p);
  scan_places("device fault reported: device_id=4 stream_id=46 task_id=0", d, r, p);
  scan_places("ranktable config devId[1], but local devId[3]", d, r, p);
  CHECK(d == std::vector<std::string>{"2", "4", "1", "3"});
  // MindSpore's module name with the pid: the pid, no device; a peer's rank and "remote_rank"
  // are not this process's.
  d.clear();
  scan_places("[CRITICAL] DEVICE(162844,fffd6cff91e0,python): from remote rank [0]. remote_rank 15 pid 7277", d, r, p);
  CHECK(d.empty());
  CHECK(r.empty());
  CHECK(p == std::vector<std::string>{"162844", "7277"});
  // A CANN plog header without a time (a paste): its pid; a call with numbers is no header.
  p.clear();
  scan_places("[ERROR] RUNTIME(38734,python3): ... [driver.cc:64]38734 GetDeviceCount:Call drvGetDevNum", d, r, p);
  scan_places("HCCL(5127,python3):2026-09-04-10:21:55.023.100 [x.cc:1]", d, r, p);
  scan_places("[INFO] torch.zeros(3,4) ok; [ERROR] APP(99,x)", d, r, p);
  CHECK(p == std::vector<std::string>{"38734", "5127"});
  CHECK(scan_time("[ERROR] HCCL(164818,python):2025-08-27-20:10:17:012.780 [topo") == "2025-08-27 20:10:17");
  CHECK(scan_time("[2020-02-27-19:18:46.142527] system exception") == "2020-02-27 19:18:46");
  CHECK(scan_time("version 2025-08-27 only").empty());
}

namespace {

Finding timed(std::string id, std::string host, std::string pid, std::string first_utc) {
  Finding f;
  f.id = std::move(id);
  f.host = std::move(host);
  f.severity = Severity::error;
  f.value("pid", std::move(pid)).value("first_utc", std::move(first_utc));
  return f;
}

}  // namespace

TEST_CASE("reply places: after a reboot, the current boot's failure", "[verdict][reply]") {
  // The stall of pid 48213 is in a plog kept from before the reboot of 02:14:29; the module
  // load that fails at boot and the retry of pid 5127 are this boot's.
  std::vector<Finding> f = {timed("stream-stall", "n7", "48213", "2026-09-04T01:25:58Z"),
                            timed("driver-binding/load-failure", "n7", "5127", "2026-09-04T02:21:55Z"),
                            Finding{}};
  f[2].id = "module-provenance/two-sets";
  Timeline t;
  BootMark b;
  b.host = "n7";
  b.start_utc_us = *parse_iso8601_utc_us("2026-09-04T02:14:29Z");
  t.boots.push_back(b);
  ReplyPlaces p = reply_places(f, {2, 0, 1}, t, "n7");
  CHECK(p.pids == std::vector<std::string>{"5127"});
  CHECK(when_line(p) == "When: first at 2026-09-04 02:21:55 UTC.");
  // Nothing of this boot in the logs: the failure before it is the one named.
  t.boots[0].start_utc_us = *parse_iso8601_utc_us("2026-09-05T00:00:00Z");
  p = reply_places(f, {2, 0, 1}, t, "n7");
  CHECK(p.pids == std::vector<std::string>{"48213", "5127"});
}

TEST_CASE("reply places: the probes' time only without a log time; skew taken off; rank from environ",
          "[verdict][reply]") {
  std::vector<Finding> f = {timed("device-exception/aicore-exception", "node3", "75086", "2026-03-02T06:08:10Z"),
                            timed("collective/wait-timeout", "node0", "62613", "2026-03-02T06:03:41Z"),
                            Finding{}};
  f[2].id = "collective/wait-root";
  f[2].value("clock_offsets", "node3 +300.2 s, node9 -2.0 s");
  RanksByProcess ranks{{{"node3", 75086}, 7}, {{"node0", 62613}, 0}};
  ReplyPlaces p = reply_places(f, {0, 1}, Timeline{}, "node3", ranks);
  CHECK(p.pids == std::vector<std::string>{"75086"});  // node0's process only waited
  CHECK(p.ranks == std::vector<std::string>{"7"});
  CHECK(when_line(p) == "When: first at 2026-03-02 06:03:09 UTC, node3's clock 300.2 s fast, corrected.");
  // A probe run at collection gives the time only when no log line does.
  Timeline t;
  TimelineEvent probe;
  probe.first_utc_us = probe.last_utc_us = *parse_iso8601_utc_us("2026-03-02T09:00:00Z");
  probe.source = "probe";
  probe.host = "node3";
  probe.finding_ids = {"probe-results/reproduces-outside-model"};
  t.events.push_back(probe);
  std::vector<Finding> g(1);
  g[0].id = "probe-results/reproduces-outside-model";
  g[0].host = "node3";
  g.push_back(timed("stream-stall", "node3", "1", "2026-03-02T01:00:00Z"));
  p = reply_places(g, {0, 1}, t, "node3");
  CHECK(when_line(p) == "When: first at 2026-03-02 01:00:00 UTC.");
  p = reply_places(g, {0}, t, "node3");
  CHECK(when_line(p) == "When: first at 2026-03-02 09:00:00 UTC.");
}

TEST_CASE("reply places: a job line's year-less time as written; its year from the bundle said so",
          "[verdict][reply][time]") {
  // The undefined symbol of ascend-pytorch-35 on the line after mmengine's `05/22 09:09:35`.
  std::vector<Finding> f(1);
  f[0].id = "library-load/failed";
  f[0].severity = Severity::error;
  EvidenceRef ev;
  ev.entry = "output.txt";
  ev.line = 2;
  ev.excerpt = "/home/ma-user/.../torch_npu/lib/libtorch_npu.so: undefined symbol: _ZN5torch10ValueErrorC1EPKcz'!";
  f[0].evidence.push_back(ev);
  LineTimes times;
  times[{"output.txt", 2}] = LineTimeText{"05/22 09:09:35", false, "05-22 09:09:35.000000"};
  ReplyPlaces p = reply_places(f, {0}, Timeline{}, "", {}, times);
  CHECK(when_line(p) == "When: first at 05/22 09:09:35 (local, year not stated).");
  // A full date without a zone: as the other times without a zone.
  times[{"output.txt", 2}] = LineTimeText{"2024-05-22 09:09:35", true, "05-22 09:09:35.000000"};
  p = reply_places(f, {0}, Timeline{}, "", {}, times);
  CHECK(when_line(p) == "When: first at 2024-05-22 09:09:35, the host's time (the input does not say its zone).");
  // Its year from an earlier full date of the file: said so.
  times[{"output.txt", 2}].year_estimated = true;
  p = reply_places(f, {0}, Timeline{}, "", {}, times);
  CHECK(when_line(p) ==
        "When: first at 2024-05-22 09:09:35, the host's time (zone not stated; year from the bundle).");
  // The bundle gave the year and the zone: an instant, and the reply says whence the year.
  Timeline t;
  TimelineEvent e;
  e.first_utc_us = e.last_utc_us = *parse_iso8601_utc_us("2025-05-22T01:09:35Z");
  e.source = "plog";  // job signature hits are drawn there
  e.time_note = "year estimated";
  e.local_offset_seconds = 8 * 3600;
  e.finding_ids = {"library-load/failed"};
  t.events.push_back(e);
  p = reply_places(f, {0}, t, "", {}, times);
  CHECK(when_line(p) == "When: first at 2025-05-22 01:09:35 UTC (09:09:35 +08:00 on the host), year from the bundle.");
  // A syslog line's estimated year stays out, as before.
  t.events[0].source = "syslog";
  p = reply_places(f, {0}, t, "", {}, {});
  CHECK(when_line(p).empty());
}
