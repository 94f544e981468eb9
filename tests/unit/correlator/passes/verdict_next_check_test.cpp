// The next check separates two causes, not a cause from "insufficient evidence", when a
// supported cause stands beside it (correlator/passes/verdict.cpp choose_next_check). The traceback
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
  REQUIRE(v.ranked.size() >= 2);
  CHECK(v.ranked.front().id == "cann-wheel-mismatch");
  // The named causes explain every finding at warning or above: insufficient evidence is not ranked.
  for (const auto& h : v.ranked) CHECK(h.id != "insufficient-evidence");
  CHECK(v.next_check.separates == "cann-wheel-mismatch vs environment-paths");
  CHECK(v.next_check.command.find("LD_LIBRARY_PATH") != std::string::npos);
  // With insufficient evidence first and no cause standing, it confirms itself, as before.
  Verdict none = verdict_of("Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\n"
                            "KeyError: 'a'\n");
  REQUIRE(none.ranked.front().id == "insufficient-evidence");
  CHECK(none.next_check.separates == "insufficient-evidence");
}

TEST_CASE("next check: a collective cause starts with the peer or remote rank the lines name", "[verdict]") {
  // Verbatim (tests/data/real/vllm-ascend-10591-hccl-connect-timeout-transport-init/plog.txt).
  const std::string transport =
      "[ERROR] HCCL(80812,):2026-06-17-02:21:43.853.333 [transport_manager.cc:954] [86231][InitChannelStage]"
      "[RunFailed]Transport init error! createLink para:rank[7]-localUserrank[7]-localIpAddr[80.5.5.39/7], "
      "remoteRank[15]-remoteUserrank[15]-remoteIpAddr[80.5.5.67/7], machineType[0], linkMode[1], isUsedRdma[1], "
      "tag[AllGather_group_name_119]\n";
  Verdict v = verdict_of(transport);
  REQUIRE(v.ranked.front().id == "collective-communication");
  CHECK(v.next_check.description.starts_with("Start with what the lines name: remote_rank 15; remote_ip 80.5.5.67/7. "));
  // Near miss: a set-up failure that names no rank (ra get if num fail) keeps the check as written.
  Verdict plain = verdict_of(
      "[ERROR] HCCL(60570,):2025-12-04-14:46:07.911.356 [adapter_hccp.cc:1621] [60570][Get][IfNum]"
      "errNo[0x000000000500000b] ra get if num fail. ret[128303], num[0]\n");
  REQUIRE(plain.ranked.front().id == "collective-communication");
  CHECK(plain.next_check.description.find("Start with") == std::string::npos);
}
