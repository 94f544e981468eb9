// The next check separates two causes, not a cause from "insufficient evidence", when a
// supported cause stands beside it (correlator/verdict.cpp choose_next_check). The traceback
// of tests/data/real/paddle-65797-libatb-missing, verbatim: a missing libatb.so supports both
// cann-wheel-mismatch and environment-paths, and only "is it on disk" separates them.
#include <catch2/catch.hpp>

#include <string>

#include "bundle_test_util.h"

using namespace triage;

namespace {

const std::string kLoaderError =
    "Traceback (most recent call last):\n"
    "  File \"/app/code/npu_paddle_ocr.py\", line 12, in <module>\n"
    "    import paddle\n"
    "ValueError: (InvalidArgument) Fail to open library: "
    "/usr/local/python3.10/lib/python3.10/site-packages/paddle_custom_device/libpaddle-custom-npu.so "
    "with error: libatb.so: cannot open shared object file: No such file or directory\n";

Verdict verdict_of(const std::string& text) { return testing::analyze_one("output.txt", text).verdict; }

}  // namespace

TEST_CASE("next check: two supported causes are separated, insufficient evidence passed over", "[verdict]") {
  Verdict v = verdict_of(kLoaderError);
  REQUIRE(v.ranked.size() >= 3);
  CHECK(v.ranked.front().id == "cann-wheel-mismatch");
  CHECK(v.next_check.separates == "cann-wheel-mismatch vs environment-paths");
  CHECK(v.next_check.command.find("LD_LIBRARY_PATH") != std::string::npos);
  // With insufficient evidence first and no cause standing, it confirms itself, as before.
  Verdict none = verdict_of("Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\n"
                            "KeyError: 'a'\n");
  REQUIRE(none.ranked.front().id == "insufficient-evidence");
  CHECK(none.next_check.separates == "insufficient-evidence");
}
