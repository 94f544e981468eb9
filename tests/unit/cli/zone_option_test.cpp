// --utc-offset by IANA zone name (tzdata), by offset, and an ambiguous abbreviation refused,
// run as a child process with TZDIR pointing at the repository's TZif fixtures.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "bundle_test_util.h"

using namespace triage;
using namespace triage::testing;

namespace {

// A plog line of local time 2025-01-10 17:53:52 (tests/fixtures/reference, section 2.1 form).
const std::string kPlogLine =
    "[ERROR] RUNTIME(3813,python3):2025-01-10-17:53:52.846.403 [device_error_proc.cc:1409] 3813 "
    "ProcessStarsCoreErrorInfo:[INIT][DEFAULT]report error module_type=5, module_name=EZ9999\n";

// TZDIR for the child: Asia/Shanghai and Australia/Sydney from tests/fixtures/tzif.
struct ZoneDir {
  TempDir dir;
  ZoneDir() {
    for (auto [from, to] : {std::pair{"Asia_Shanghai.tzif", "Asia/Shanghai"},
                            std::pair{"Australia_Sydney.tzif", "Australia/Sydney"}}) {
      std::filesystem::create_directories(std::filesystem::path(dir / to).parent_path());
      std::filesystem::copy_file(std::string(TEST_DATA_DIR) + "/fixtures/tzif/" + from, dir / to);
    }
    setenv("TZDIR", std::string(dir.path()).c_str(), 1);
  }
  ~ZoneDir() { unsetenv("TZDIR"); }
};

}  // namespace

TEST_CASE("cli --utc-offset: an IANA zone name converts local times with its rules", "[cli][time]") {
  ZoneDir zones;
  TempDir in;
  write_file(in / "plog-3813_20250110175352195.log", kPlogLine);
  const std::string log = in / "plog-3813_20250110175352195.log";
  CliRun shanghai = run_cli({"--utc-offset", "Asia/Shanghai", "timeline", log});
  INFO(shanghai.err);
  CHECK(shanghai.out.find("2025-01-10T09:53:52.846403Z") != std::string::npos);
  CHECK(shanghai.out.find("local 2025-01-10T17:53:52.846403+08:00") != std::string::npos);
  // January is summer in Sydney: the DST rule of the file, +11:00, not the standard +10:00.
  CliRun sydney = run_cli({"--utc-offset", "Australia/Sydney", "timeline", log});
  CHECK(sydney.out.find("2025-01-10T06:53:52.846403Z") != std::string::npos);
  // The report says which zone was assumed, not that none was given.
  CliRun report = run_cli({"--utc-offset", "Asia/Shanghai", "analyze", log});
  CHECK(report.out.find("Asia/Shanghai (CST-8), from --utc-offset, assumed") != std::string::npos);
  CHECK(report.out.find("unless --utc-offset is given") == std::string::npos);
  // The same as the offset written out.
  CliRun offset = run_cli({"--utc-offset", "+08:00", "timeline", log});
  CHECK(offset.out.find("2025-01-10T09:53:52.846403Z") != std::string::npos);
}

TEST_CASE("cli --utc-offset: an ambiguous abbreviation, a path and an unknown zone are refused",
          "[cli][time]") {
  ZoneDir zones;
  TempDir in;
  write_file(in / "plog-3813_20250110175352195.log", kPlogLine);
  const std::string log = in / "plog-3813_20250110175352195.log";
  CliRun cst = run_cli({"--utc-offset", "CST", "timeline", log});
  CHECK(cst.exit_code == 2);
  CHECK(cst.err.find("'CST' names more than one zone") != std::string::npos);
  CHECK(cst.err.find("Asia/Shanghai (+08:00)") != std::string::npos);
  CHECK(cst.err.find("America/Chicago (-06:00)") != std::string::npos);
  CliRun path = run_cli({"--utc-offset", "../Asia/Shanghai", "timeline", log});
  CHECK(path.exit_code == 2);
  CHECK(path.err.find("IANA zone name") != std::string::npos);
  CliRun unknown = run_cli({"--utc-offset", "Mars/Olympus_Mons", "timeline", log});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("no zone 'Mars/Olympus_Mons'") != std::string::npos);
}
