// environment/visible-devices-set-late and the `>>> ` reader under it (parsers/job/repl_input.cpp):
// the interactive session of tests/data/real/ascend-pytorch-67-setdevice-after-import-507033,
// verbatim, and the orders that are right.
#include <catch2/catch.hpp>

#include <string>

#include "parsers/job/repl_input.h"

#include "analysis_test_support.h"
#include "bundle_test_util.h"

using namespace triage;
using What = repl::ReplInput::What;

namespace {

// The session's first lines as pasted, and its failure report's first line.
const std::string kSet = ">>> os.environ['ASCEND_RT_VISIBLE_DEVICES'] = '1'\n";
const std::string kUse = ">>> torch_npu._C._npu_setDevice(0)\n";
const std::string kFailure =
    "Traceback (most recent call last):\n"
    "  File \"<stdin>\", line 1, in <module>\n"
    "RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:146 NPU function error: "
    "c10_npu::SetDevice(device_id_), error code is 507033\n";

Report analyze(const std::string& text) { return testing::analyze_one("console.txt", text); }

const Finding* late(const Report& r) {
  return testing::find_finding(r.findings, "environment/visible-devices-set-late");
}

}  // namespace

TEST_CASE("repl input: the assignment, the import and a use, and lines that are none of them", "[repl]") {
  auto set = repl::parse_repl_input(">>> os.environ['ASCEND_RT_VISIBLE_DEVICES'] = '1'");
  REQUIRE(set);
  CHECK(set->what == What::sets_visible_devices);
  CHECK(set->variable == "ASCEND_RT_VISIBLE_DEVICES");
  CHECK(repl::parse_repl_input(">>> os.putenv(\"ASCEND_VISIBLE_DEVICES\", \"0\")")->variable == "ASCEND_VISIBLE_DEVICES");
  CHECK(repl::parse_repl_input(">>> import torch, torch_npu")->what == What::imports_npu);
  CHECK(repl::parse_repl_input(">>> from torch_npu.contrib import transfer_to_npu")->what == What::imports_npu);
  CHECK(repl::parse_repl_input(">>> torch_npu._C._npu_setDevice(0)")->what == What::uses_npu);
  CHECK(repl::parse_repl_input(">>> torch.npu.set_device(0)")->what == What::uses_npu);
  CHECK(repl::parse_repl_input(">>>")->what == What::other);
  // Near misses: reading the variable is not setting it; a comparison is not an assignment;
  // a plog PROFILING body and a quoted prompt are not prompts.
  CHECK(repl::parse_repl_input(">>> print(os.environ['ASCEND_RT_VISIBLE_DEVICES'])")->what == What::other);
  CHECK(repl::parse_repl_input(">>> os.environ['ASCEND_RT_VISIBLE_DEVICES'] == '1'")->what == What::other);
  CHECK(repl::parse_repl_input(">>> import torch")->what == What::other);
  CHECK_FALSE(repl::parse_repl_input(" >>> (tid:3) msg"));
  CHECK_FALSE(repl::parse_repl_input(">>>import torch_npu"));
}

TEST_CASE("visible devices set late: the corpus session, and the order that is right", "[repl]") {
  Report r = analyze(kSet + kUse + kFailure);
  const Finding* f = late(r);
  REQUIRE(f);
  CHECK(*f->find_value("variable") == "ASCEND_RT_VISIBLE_DEVICES");
  CHECK(*f->find_value("order") == "set-then-use-without-import");
  REQUIRE(f->evidence.size() == 2);
  CHECK(f->evidence[0].line == 1);
  CHECK(f->evidence[1].line == 2);
  CHECK(r.verdict.ranked.front().id == "environment-paths");

  // Imported after the assignment: the runtime sees the variable.
  CHECK_FALSE(late(analyze(kSet + ">>> import torch_npu\n" + kUse + kFailure)));
  // Imported before it: late, citing the import.
  Report before = analyze(">>> import torch_npu\n" + kSet + kUse + kFailure);
  REQUIRE(late(before));
  CHECK(*late(before)->find_value("order") == "import-then-set");
  CHECK(late(before)->evidence[0].line == 1);
  // No torch_npu line after the assignment: nothing says when it was imported.
  CHECK_FALSE(late(analyze(kSet + kFailure)));
}
