// `ascend-triage timeline` and the timeline options of `analyze`, run as a child process.
#include <catch2/catch.hpp>
#include <simdjson.h>

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
