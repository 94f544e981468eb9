// `ascend-triage timeline` and the timeline options of `analyze`, run as a child process.
#include <catch2/catch.hpp>
#include <simdjson.h>

#include <functional>
#include <sstream>

#include "bundle_test_util.h"

using namespace triage;
using namespace triage::testing;

namespace {

std::string sample(const char* name) { return std::string(SAMPLES_DIR) + "/" + name; }

size_t lines_of(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("cli timeline: prints the timeline alone, in UTC with the host's local time",
          "[timeline][cli]") {
  CliRun run = run_cli({"timeline", sample("incident-910b-before-reboot")});
  INFO(run.err);
  CHECK(run.exit_code == 1);  // findings at warning or above, as analyze
  CHECK(run.out.rfind("Timeline: ", 0) == 0);
  CHECK(run.out.find("2026-09-04T01:25:58.") != std::string::npos);
  CHECK(run.out.find("local 2026-09-04T09:25:58.") != std::string::npos);
  CHECK(run.out.find("x7, last 2026-09-04T01:43:58.") != std::string::npos);
  CHECK(run.out.find("Driver_ko_install failed") != std::string::npos);
  CHECK(run.out.find("Findings") == std::string::npos);  // not the full report
}

TEST_CASE("cli timeline: --since, --until, --source and --min-severity filter and say so",
          "[timeline][cli]") {
  CliRun all = run_cli({"timeline", "--format", "jsonl", sample("incident-910b-before-reboot")});
  CliRun some = run_cli({"timeline", "--format", "jsonl", "--since", "2026-09-04T09:00:00+08:00",
                         "--until", "2026-09-04T01:45:00Z", "--source", "plog,journal",
                         "--min-severity", "warning", sample("incident-910b-before-reboot")});
  INFO(some.err);
  REQUIRE(some.exit_code <= 1);
  CHECK(lines_of(some.out) > 0);
  CHECK(lines_of(some.out) < lines_of(all.out));
  simdjson::dom::parser parser;
  std::istringstream in(some.out);
  std::string line;
  while (std::getline(in, line)) {
    simdjson::dom::element doc;
    REQUIRE(parser.parse(line).get(doc) == simdjson::SUCCESS);
    std::string_view source, severity, desc;
    REQUIRE(doc["timestamp_desc"].get(desc) == simdjson::SUCCESS);
    if (desc == "Boot") continue;
    REQUIRE(doc["source"].get(source) == simdjson::SUCCESS);
    REQUIRE(doc["severity"].get(severity) == simdjson::SUCCESS);
    CHECK((source == "plog" || source == "journal"));
    CHECK(severity != "info");
  }
  CliRun text = run_cli({"timeline", "--source", "plog", sample("incident-910b-before-reboot")});
  CHECK(text.out.find("filtered out") != std::string::npos);

  CliRun json = run_cli({"analyze", "--format", "json", "--min-severity", "error",
                         sample("incident-910b-before-reboot")});
  simdjson::dom::element doc;
  REQUIRE(parser.parse(json.out).get(doc) == simdjson::SUCCESS);
  uint64_t filtered = 0;
  REQUIRE(doc["timeline"]["filtered_out"].get(filtered) == simdjson::SUCCESS);
  CHECK(filtered > 0);
}

TEST_CASE("cli timeline: a time without a zone or an unknown lane is refused", "[timeline][cli]") {
  CliRun run = run_cli({"timeline", "--since", "2026-09-04 01:00:00", sample("incident-910b-before-reboot")});
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("--since") != std::string::npos);
  run = run_cli({"timeline", "--source", "stdout", sample("incident-910b-before-reboot")});
  CHECK(run.exit_code == 2);
  run = run_cli({"analyze", "--until", "yesterday", sample("incident-910b-before-reboot")});
  CHECK(run.exit_code == 2);
  run = run_cli({"timeline", "--since", "2026-09-05T00:00:00Z", "--until", "2026-09-04T00:00:00Z",
                 sample("incident-910b-before-reboot")});
  CHECK(run.exit_code == 2);
}

TEST_CASE("cli timeline: a date alone filters by the UTC day; JSONL says what it left out", "[timeline][cli]") {
  CliRun all = run_cli({"timeline", "--format", "jsonl", sample("incident-910b-before-reboot")});
  CliRun day = run_cli({"timeline", "--format", "jsonl", "--since", "2026-09-04", "--until", "2026-09-04",
                        sample("incident-910b-before-reboot")});
  INFO(day.err);
  REQUIRE(day.exit_code <= 1);
  CHECK(lines_of(day.out) > 0);
  CHECK(lines_of(day.out) <= lines_of(all.out));
  CHECK(day.out.find("\"datetime\":\"2026-09-03") == std::string::npos);
  CHECK(day.out.find("\"datetime\":\"2026-09-05") == std::string::npos);
  CliRun later = run_cli({"timeline", "--format", "jsonl", "--since", "2026-09-05",
                          sample("incident-910b-before-reboot")});
  CHECK(lines_of(later.out) < lines_of(all.out));
  CliRun bad = run_cli({"timeline", "--since", "2026-13-04", sample("incident-910b-before-reboot")});
  CHECK(bad.exit_code == 2);
  // A loose plog has local times and no zone: no JSONL line can be written, and stderr says why.
  TempDir in;
  write_file(in / "plog-3813_20250110175352195.log",
             "[ERROR] RUNTIME(3813,python3):2025-01-10-17:53:52.846.403 [device_error_proc.cc:1409] 3813 "
             "ProcessStarsCoreErrorInfo:[INIT][DEFAULT]report error module_type=5, module_name=EZ9999\n");
  CliRun local = run_cli({"timeline", "--format", "jsonl", in.path()});
  CHECK(local.out.empty());
  CHECK(local.err.find("1 line(s) that would be events are not in the JSONL") != std::string::npos);
  CliRun zoned = run_cli({"--utc-offset", "+08:00", "timeline", "--format", "jsonl", in.path()});
  CHECK(lines_of(zoned.out) == 1);
  CHECK(zoned.err.find("not in the JSONL") == std::string::npos);
}

namespace {

// The timeline's events (not boots) as JSON lines, parsed; `check` sees each one.
size_t events_where(const std::vector<std::string>& options, const std::string& input,
                    const std::function<void(simdjson::dom::element)>& check) {
  std::vector<std::string> args = {"timeline", "--format", "jsonl"};
  args.insert(args.end(), options.begin(), options.end());
  args.push_back(input);
  CliRun run = run_cli(args);
  INFO(run.err);
  REQUIRE(run.exit_code <= 1);
  simdjson::dom::parser parser;
  std::istringstream in(run.out);
  std::string line;
  size_t events = 0;
  while (std::getline(in, line)) {
    simdjson::dom::element doc;
    REQUIRE(parser.parse(line).get(doc) == simdjson::SUCCESS);
    std::string_view desc;
    REQUIRE(doc["timestamp_desc"].get(desc) == simdjson::SUCCESS);
    if (desc == "Boot") continue;
    ++events;
    check(doc);
  }
  return events;
}

}  // namespace

TEST_CASE("cli timeline: --pid, --device, --rank and --grep keep only their events", "[timeline][cli]") {
  std::string incident = sample("incident-910b-before-reboot");
  size_t all = events_where({}, incident, [](simdjson::dom::element) {});
  size_t pid = events_where({"--pid", "48213"}, incident, [](simdjson::dom::element e) {
    int64_t v = 0;
    REQUIRE(e["pid"].get(v) == simdjson::SUCCESS);
    CHECK(v == 48213);
  });
  size_t device = events_where({"--device", "0"}, incident, [](simdjson::dom::element e) {
    int64_t v = -1;
    REQUIRE(e["device"].get(v) == simdjson::SUCCESS);
    CHECK(v == 0);
  });
  size_t grep = events_where({"--grep", "three minutes timeout"}, incident, [](simdjson::dom::element e) {
    std::string_view message;
    REQUIRE(e["message"].get(message) == simdjson::SUCCESS);
    CHECK(message.find("three minutes timeout") != std::string_view::npos);
  });
  CHECK(pid > 0);
  CHECK(device > 0);
  CHECK(grep > 0);
  CHECK(pid < all);
  CHECK(device < all);
  CHECK(grep < all);
  // Combined with each other and with --min-severity: a subset of each.
  size_t both = events_where({"--pid", "48213", "--grep", "three minutes timeout", "--min-severity", "warning"}, incident,
                             [](simdjson::dom::element e) {
                               std::string_view severity;
                               REQUIRE(e["severity"].get(severity) == simdjson::SUCCESS);
                               CHECK(severity != "info");
                             });
  CHECK(both > 0);
  CHECK(both <= grep);
  CHECK(both < pid);

  // A rank is the process whose environment states RANK: node1 runs ranks 2 and 3 on devices 0
  // and 1, and its device-log events carry the device alone. Rank 3's: its timeout on device 1
  // and its heartbeat report as the discoverer 10.20.7.12/1.
  std::string node1 = sample("fleet-4node/node1");
  CHECK(events_where({"--rank", "3"}, node1, [](simdjson::dom::element e) {
          std::string_view message;
          REQUIRE(e["message"].get(message) == simdjson::SUCCESS);
          CHECK((message.find("device(chipId:1,") != std::string_view::npos ||
                 message.find("Discoverer:[10.20.7.12/1]") != std::string_view::npos));
        }) == 2);
  CHECK(events_where({"--rank", "7"}, node1, [](simdjson::dom::element) {}) == 0);

  CliRun text = run_cli({"timeline", "--pid", "48213", incident});
  CHECK(text.out.find(" filtered out") != std::string::npos);  // the events left out are counted
  CliRun bad = run_cli({"timeline", "--grep", "(", incident});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--grep: missing )") != std::string::npos);
}
