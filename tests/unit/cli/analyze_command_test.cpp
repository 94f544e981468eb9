// `analyze --brief`, run as a child process: the alias of --format brief, refused beside
// another --format (a usage error: exit 2, said on stderr, nothing on stdout).
#include <catch2/catch.hpp>

#include "bundle_test_util.h"

using namespace triage;
using namespace triage::testing;

namespace {

std::string sample(const char* name) { return std::string(SAMPLES_DIR) + "/" + name; }

}  // namespace

TEST_CASE("cli analyze: --brief is --format brief", "[cli][brief]") {
  CliRun alias = run_cli({"analyze", "--brief", sample("incident-loose-files")});
  CliRun format = run_cli({"analyze", "--format", "brief", sample("incident-loose-files")});
  INFO(alias.err);
  CHECK(alias.exit_code == 1);  // findings at warning or above, as every format
  CHECK(alias.out == format.out);
  CHECK_THAT(alias.out, Catch::Contains("\nEvidence:\n  log1.txt:4415  "));
  // The same format named twice is no conflict.
  CliRun both = run_cli({"analyze", "--brief", "--format", "brief", sample("incident-loose-files")});
  CHECK(both.exit_code == 1);
  CHECK(both.out == format.out);
}

TEST_CASE("cli analyze: --brief with another --format is a usage error", "[cli][brief]") {
  for (const char* other : {"text", "md"}) {
    CliRun run = run_cli({"analyze", "--brief", "--format", other, sample("healthy-after-reinstall")});
    INFO(other << ": " << run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::Contains(std::string("--brief is --format brief; it cannot be given with --format ") +
                                        other));
  }
}
