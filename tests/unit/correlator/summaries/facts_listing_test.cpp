// `ascend-triage facts` rows (correlator/facts_listing) from job output read by the Python-log
// parser: verbatim lines of public threads (vllm-ascend #4430, #340, PaddlePaddle #65797,
// Ascend/pytorch #29), checked for the key=value rows the corpus tests rely on.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <tuple>
#include <string>

#include "python_test_util.h"
#include "correlator/summaries/facts_listing.h"

using namespace triage;

namespace {

bool has(const std::vector<FactRow>& rows, const std::string& key, const std::string& value) {
  return std::any_of(rows.begin(), rows.end(),
                     [&](const FactRow& r) { return r.key == key && r.value == value; });
}

}  // namespace

TEST_CASE("facts: job output rows in the corpus vocabulary", "[facts]") {
  std::string text =
      "(Worker_TP5 pid=7129) ERROR 2025-11-25 15:18:55.343 [multiproc_executor.py:671] [ERROR] "
      "2025-11-25-15:18:55 (PID:7129, Device:5, RankID:-1) ERR00100 PTA call acl api failed.\n"
      "[rank0]: AttributeError: module 'torch_npu' has no attribute '_npu_flash_attention'\n"
      "ValueError: (InvalidArgument) Fail to open library: /usr/local/python3.10/lib/python3.10/"
      "site-packages/paddle_custom_device/libpaddle-custom-npu.so with error: libatb.so: cannot "
      "open shared object file: No such file or directory\n"
      "[ERROR] GE(2440326,python):2024-04-08-15:18:43.444.808 [ops_kernel_manager.cc:95]2440326 "
      "Initialize: ErrorNo: 1343250441(There is no valid so about OpsKernelInfoStore or "
      "GraphOptimizer.) [INIT][OPS_KER][Invoke][OpsKernelInfo]PluginManager InvokeAll failed.\n";
  auto p = pytest::parse_python_text(text);
  auto rows = list_facts(p.facts);
  CHECK(has(rows, "code", "ERR00100"));
  CHECK(has(rows, "pid", "7129"));
  CHECK(has(rows, "device", "5"));
  CHECK(has(rows, "time", "2025-11-25-15:18:55"));
  CHECK(has(rows, "component", "PTA"));
  CHECK(has(rows, "rank", "0"));
  CHECK(has(rows, "symbol", "_npu_flash_attention"));
  CHECK(has(rows, "library", "libatb.so"));
  CHECK(has(rows, "library", "libpaddle-custom-npu.so"));
  // The plog line printed to stdout keeps its facts.
  CHECK(has(rows, "component", "GE"));
  CHECK(has(rows, "pid", "2440326"));
  // Every line of job output here is recognised by its shape.
  CHECK(p.stats.lines_recognised == 4);
  CHECK(p.stats.lines_unrecognised == 0);
  // Stable order, no duplicates, and the printed form.
  auto sorted = rows;
  std::sort(sorted.begin(), sorted.end(), [](const FactRow& a, const FactRow& b) {
    return std::tie(a.entry, a.line, a.key, a.value) < std::tie(b.entry, b.line, b.key, b.value);
  });
  CHECK(std::equal(rows.begin(), rows.end(), sorted.begin(), [](const FactRow& a, const FactRow& b) {
    return a.key == b.key && a.value == b.value && a.line == b.line;
  }));
  std::ostringstream out;
  print_fact_rows(rows, out);
  CHECK(out.str().find("code=ERR00100\tjob.log:1\n") != std::string::npos);
}

TEST_CASE("facts: a program's own prints carry no fact and no shape; DeepSpeed's step line is a shape", "[facts]") {
  auto p = pytest::parse_python_text(
      "    steps: 110 loss: 1.9161 iter time (s): 0.580 samples/sec: 441.545\n"
      "Loading extension module npu_rotary_position_embedding...\n");
  CHECK(list_facts(p.facts).empty());
  CHECK(p.stats.lines_recognised == 1);    // DeepSpeed's throughput timer record
  CHECK(p.stats.lines_unrecognised == 1);  // the program's own print
}

TEST_CASE("facts: ids named inside message text", "[facts]") {
  // ascend-pytorch #52, #56 and gpustack #2021, verbatim lines
  auto p = pytest::parse_python_text(
      "RuntimeError: The Inner error is reported as above. The process exits for this inner error, and "
      "the current working operator name is Conv3DTranspose.\n"
      "/data/home/x/anaconda3/envs/m/lib/python3.9/site-packages/torch_npu/utils/path_manager.py:82: "
      "UserWarning: Warning: The /usr/local/Ascend/ascend-toolkit/7.0.1.5/aarch64-linux/ascend_toolkit_install.info "
      "owner does not match the current user.\n"
      "[2025-05-13 02:25:58.64217] [error] [36815] [hccl_runner.cpp:132] AllGatherHcclRunner:0 "
      "HcclCommInitRootInfo fail, error:2, rank:1, rankSize:4\n");
  auto rows = list_facts(p.facts);
  CHECK(has(rows, "operator", "Conv3DTranspose"));
  CHECK(has(rows, "rank", "1"));
  CHECK_FALSE(has(rows, "rank", "4"));  // rankSize is not a rank
  CHECK(has(rows, "version", "7.0.1.5"));
  // near miss: `latest` is not a version directory
  auto q = pytest::parse_python_text(
      "RuntimeError: failed to load /usr/local/Ascend/ascend-toolkit/latest/lib64/libascendcl.so\n");
  for (const auto& r : list_facts(q.facts)) CHECK(r.key != "version");
}

TEST_CASE("facts: the values the fact scanner read in a bundle's entries are listed too", "[facts]") {
  // tests/data/real/vllm-ascend-2201-glm41v-err01100-c10-frames (a c10 frame) and
  // ms-swift-1243 (torch_npu's warning): values no reader keeps, only the scanner reads.
  const std::string path = "facts-listing-scanned/output.txt";  // the scanner's store is per entry name
  auto p = pytest::parse_python_text(
      "frame #2: <unknown function> + 0x1a2b3c (0xffff8d9a2b3c in /usr/local/lib/python3.10/site-packages/"
      "torch_npu/lib/libtorch_npu.so)\n"
      "[W compiler_depend.ts:148] Warning: Failed to find function aclrtCreateEventExWithFlag (function operator())\n",
      {}, path);
  CHECK_FALSE(has(list_facts(p.facts), "library", "libtorch_npu.so"));  // not an entry of this bundle yet
  InventoryEntry e;
  e.info.path = e.info.display = path;
  p.facts.inventory.entries.push_back(e);
  auto rows = list_facts(p.facts);
  CHECK(has(rows, "library", "libtorch_npu.so"));
  CHECK(has(rows, "symbol", "aclrtCreateEventExWithFlag"));
  CHECK(std::is_sorted(rows.begin(), rows.end(), [](const FactRow& a, const FactRow& b) {
    return std::tie(a.entry, a.line, a.key, a.value) < std::tie(b.entry, b.line, b.key, b.value);
  }));
}
