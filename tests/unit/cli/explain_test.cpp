// `explain` on a finding whose texts name values the report fills ({root}): shown as <root>,
// never as a template's braces (issue 38: no template text leaks).
#include <catch2/catch.hpp>

#include "bundle_test_util.h"

using namespace triage::testing;

TEST_CASE("cli: explain shows a finding's placeholders as <value>, not {value}", "[cli][explain]") {
  CliRun r = run_cli({"explain", "collective/wait-root"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("<root>") != std::string::npos);
  CHECK(r.out.find("{root}") == std::string::npos);
  // A brace that is not a placeholder stays as written.
  CliRun plain = run_cli({"explain", "collective/wait-timeout"});
  REQUIRE(plain.exit_code == 0);
  CHECK(plain.out.find("How to settle: grep -h -E") != std::string::npos);
}
