// `ascend-triage show ADDRESS`, run as a child process: the address the report prints pasted
// back, from a directory and from archives, and hostile entries (control bytes, '!' in names,
// long lines, lines past the end, entries that are not there).
#include <catch2/catch.hpp>

#include <filesystem>

#include "bundle_test_util.h"

using namespace triage;
using namespace triage::testing;

namespace {

const std::string kSample = std::string(SAMPLES_DIR) + "/incident-910b-before-reboot";

// The first evidence address of the text report, as an engineer would copy it.
std::string first_evidence_address(const std::string& input) {
  CliRun run = run_cli({"analyze", input});
  size_t at = run.out.find("Evidence:");
  REQUIRE(at != std::string::npos);
  at = run.out.find_first_not_of(' ', at + 9);
  return run.out.substr(at, run.out.find('\n', at) - at);
}

// The sample's files as archive members under its own directory name.
std::vector<Member> sample_members() {
  std::vector<Member> members;
  namespace fs = std::filesystem;
  for (const auto& e : fs::recursive_directory_iterator(kSample))
    if (e.is_regular_file())
      members.push_back({"incident-910b-before-reboot/" + fs::relative(e.path(), kSample).string(),
                         read_file(e.path().string())});
  return members;
}

const std::string kPlog = "logs/host/root/ascend/log/debug/plog/plog-48213_20260904092031548.log";

}  // namespace

TEST_CASE("cli show: the report's evidence address of a directory, pasted back", "[show][cli]") {
  std::string address = first_evidence_address(kSample);
  CliRun run = run_cli({"show", address});
  INFO(address << '\n' << run.err);
  REQUIRE(run.exit_code == 0);
  std::string line_no = address.substr(address.rfind(':') + 1);
  CHECK(run.out.find("\n> " + line_no + "  ") != std::string::npos);

  CliRun plog = run_cli({"show", kSample + "/" + kPlog + ":4415"});
  REQUIRE(plog.exit_code == 0);
  CHECK(plog.out.find("\n  4412  [INFO] RUNTIME(48213") != std::string::npos);
  CHECK(plog.out.find("\n> 4415  [EVENT] RUNTIME(48213,python3):2026-09-04-09:25:58.614.493") != std::string::npos);
  CHECK(plog.out.find("\n  4418  ") != std::string::npos);
  CHECK(plog.out.find("4419") == std::string::npos);
  CHECK(plog.out.find("4411") == std::string::npos);

  CliRun bang = run_cli({"show", kSample + "!" + kPlog + ":2", "-C", "0"});  // BUNDLE!PATH of a directory
  REQUIRE(bang.exit_code == 0);
  CHECK(bang.out.find("\n> 2  [INFO] PROFILING(48213") != std::string::npos);
  CHECK(bang.out.find("\n  1  ") == std::string::npos);
}

TEST_CASE("cli show: the report's evidence address inside a .tar.gz, pasted back", "[show][cli]") {
  TempDir dir;
  std::string archive = dir / "incident.tar.gz";
  write_archive(archive, sample_members(), ArchiveFormat::tar, Filter::gzip);
  std::string address = first_evidence_address(archive);
  REQUIRE(address.find(".tar.gz!") != std::string::npos);
  CliRun run = run_cli({"show", address, "-C", "1"});
  INFO(address << '\n' << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("\n> " + address.substr(address.rfind(':') + 1) + "  ") != std::string::npos);
}

TEST_CASE("cli show: .tar.zst and .zip entries, '!' inside a name, a stored copy", "[show][cli]") {
  TempDir dir;
  std::vector<Member> members = {{"./b/logs/we!rd.log", "one\ntwo\nthree\n"},
                                 {"b/dup.log", "first copy\n"},
                                 {"b/dup.log", "second copy\n"}};
  write_archive(dir / "b.tar.zst", members, ArchiveFormat::tar, Filter::zstd);
  write_archive(dir / "b.zip", members, ArchiveFormat::zip, Filter::none);
  for (const char* name : {"b.tar.zst", "b.zip"}) {
    CliRun run = run_cli({"show", dir / name + "!b/logs/we!rd.log:2", "-C", "1"});
    INFO(name << '\n' << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.find("\n  1  one\n> 2  two\n  3  three\n") != std::string::npos);
    CliRun copy = run_cli({"show", dir / name + "!b/dup.log (copy 2):1"});
    CHECK(copy.out.find("> 1  second copy") != std::string::npos);
  }
}

TEST_CASE("cli show: bundle text cannot drive the terminal, long lines are cut", "[show][cli]") {
  TempDir dir;
  std::string hostile = "ok\nclip \x1b]52;c;QUFBQQ==\x07 red \x1b[31mRED\x1b[0m bidi \xe2\x80\xae end\n" +
                        std::string(5000, 'x') + "\n";
  write_archive(dir / "h.tar.gz", {{"h/evil.log", hostile}}, ArchiveFormat::tar, Filter::gzip);
  CliRun run = run_cli({"show", dir / "h.tar.gz!h/evil.log:2"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find('\x1b') == std::string::npos);  // not even the colour the guard lets pass
  CHECK(run.out.find('\x07') == std::string::npos);
  CHECK(run.out.find("\xe2\x80\xae") == std::string::npos);
  CHECK(run.out.find("\\x1b]52") != std::string::npos);
  CHECK(run.out.find("[line cut: first 2000 of 5000 bytes shown]") != std::string::npos);
  CHECK(run.out.size() < 3000);
}

TEST_CASE("cli show: a member named with control bytes, as the report prints it", "[show][cli]") {
  TempDir dir;
  write_archive(dir / "c.tar", {{"c/ev\x1b[2Jil.log", "alpha\nbeta\n"}}, ArchiveFormat::gnu_tar, Filter::none);
  // The reports name an archive member with its control bytes as \xNN (escape_control_bytes).
  std::string printed = dir / "c.tar!c/ev\\x1b[2Jil.log";
  CliRun run = run_cli({"show", printed + ":2"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("\n> 2  beta\n") != std::string::npos);
  CHECK(run.out.find('\x1b') == std::string::npos);
}

TEST_CASE("cli show: a wrong address is an error naming the file, exit 2", "[show][cli]") {
  TempDir dir;
  write_archive(dir / "s.tar.gz", {{"s/a.log", "one\ntwo\n"}}, ArchiveFormat::tar, Filter::gzip);
  write_file(dir / "loose.log", "only line\n");
  struct Case {
    std::string address, says;
  };
  for (const Case& c : std::vector<Case>{
           {dir / "s.tar.gz!s/a.log:3", "'" + dir / "s.tar.gz!s/a.log' has 2 lines; line 3 is past its end"},
           {dir / "s.tar.gz!s/nope.log:1", "no entry 's/nope.log' in '" + dir / "s.tar.gz'"},
           {dir / "s.tar.gz!s/a.log", "must end in :LINE"},
           {dir / "s.tar.gz!s/a.log:0", "line numbers start at 1"},
           {dir / "s.tar.gz:1", "is an archive: name an entry in it"},
           {dir / "loose.log:2", "has 1 line; line 2 is past its end"},
           {dir / "loose.log!x.log:1", "is not an archive or a directory"},
           {dir / "absent.tar.gz!a.log:1", "no such file or bundle"},
           {kSample + "!nope.log:1", "no entry 'nope.log' in"},
           {kSample + "!../escape.log:1", "is not a path inside"},
       }) {
    CliRun run = run_cli({"show", c.address});
    INFO(c.address << '\n' << run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.out.empty());
    CHECK(run.err.find(c.says) != std::string::npos);
  }
}
