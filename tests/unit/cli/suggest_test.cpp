// "Did you mean" for subcommands, options and explain ids; `analyse` and `markdown` accepted
// (issue 38), run as a child process.
#include <catch2/catch.hpp>

#include "bundle_test_util.h"

using namespace triage;
using namespace triage::testing;

namespace {
std::string sample(const char* name) { return std::string(SAMPLES_DIR) + "/" + name; }
}  // namespace

TEST_CASE("cli: a mistyped subcommand, option or explain id names the nearest one", "[cli][suggest]") {
  CliRun sub = run_cli({"anlayze", sample("healthy-after-reinstall")});
  CHECK(sub.exit_code == 2);
  CHECK(sub.err.find("unknown subcommand 'anlayze': did you mean 'analyze'?") != std::string::npos);
  CliRun opt = run_cli({"analyze", "--fromat", "md", sample("healthy-after-reinstall")});
  CHECK(opt.exit_code == 2);
  CHECK(opt.err.find("unknown option '--fromat': did you mean '--format'?") != std::string::npos);
  CliRun id = run_cli({"explain", "collective/store-timout"});
  CHECK(id.exit_code == 2);
  CHECK(id.err.find("did you mean 'collective/store-timeout'?") != std::string::npos);
  // Nothing near: no guess.
  CliRun far = run_cli({"explain", "zzzzzzzzzz"});
  CHECK(far.err.find("did you mean") == std::string::npos);
  CliRun far_sub = run_cli({"qqqqqq"});
  CHECK(far_sub.exit_code == 2);
  CHECK(far_sub.err.find("did you mean") == std::string::npos);
}

TEST_CASE("cli: `analyse` is analyze; `markdown` and `md` are one format everywhere", "[cli][suggest]") {
  CliRun british = run_cli({"analyse", "--format", "json", sample("healthy-after-reinstall")});
  CliRun american = run_cli({"analyze", "--format", "json", sample("healthy-after-reinstall")});
  CHECK(british.exit_code == american.exit_code);
  CHECK(british.out == american.out);
  CliRun md = run_cli({"analyze", "--format", "md", sample("healthy-after-reinstall")});
  CliRun markdown = run_cli({"analyze", "--format", "markdown", sample("healthy-after-reinstall")});
  CHECK(md.out == markdown.out);
  CHECK(md.out.rfind("# ascend-triage report", 0) == 0);
  CliRun diff_md = run_cli({"diff", "--format", "md", sample("healthy-after-reinstall"),
                            sample("incident-910b-before-reboot")});
  CliRun diff_markdown = run_cli({"diff", "--format", "markdown", sample("healthy-after-reinstall"),
                                  sample("incident-910b-before-reboot")});
  CHECK(diff_md.exit_code == diff_markdown.exit_code);
  CHECK(diff_md.out == diff_markdown.out);
  CHECK(diff_md.out.rfind("# Chain diff", 0) == 0);
}
