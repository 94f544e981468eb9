#include <catch2/catch.hpp>

#include "correlator/analyses/library_provenance.h"
#include "correlator/analyses/task_queue_value.h"

#include "analysis_test_support.h"
#include "library_facts_util.h"

using namespace triage;
using namespace libtest;

namespace {
std::vector<Finding> run(const BundleFacts& b, AnalysisFn fn) { return testing::run_analysis(fn, b); }
}  // namespace

TEST_CASE("library origin and CANN install of a path") {
  LibraryFacts lf;
  CHECK(origin_of("/usr/local/Ascend/cann-9.1.0/aarch64-linux/lib64/libascendcl.so") == LibOrigin::cann);
  CHECK(origin_of("/usr/local/Ascend/driver/lib64/common/libc_sec.so") == LibOrigin::driver);
  CHECK(origin_of("/site/torch_npu/lib/libtorch_npu.so") == LibOrigin::torch_npu);
  CHECK(origin_of("/usr/lib/libc.so.6") == LibOrigin::none);
  auto c = cann_of_path("/usr/local/Ascend/ascend-toolkit/8.2.RC1/aarch64-linux/lib64/libacl.so", lf);
  REQUIRE(c);
  CHECK(c->version == "8.2.RC1");
  CHECK_FALSE(cann_of_path("/usr/local/Ascend/ascend-toolkit/latest/lib64/x.so", lf));
  lf.cann_index.push_back(CannIndexRow{"c1", "/opt/cann", "toolkit", "8.5.0", "/opt/cann", "host", {}});
  c = cann_of_path("/opt/cann/lib64/libascendcl.so", lf);
  REQUIRE(c);
  CHECK(c->version == "8.5.0");
}

TEST_CASE("library-provenance: one CANN is info only") {
  auto f = run(job("2.9.0", "2.9.0.post6", "9.1.0"), analyze_library_provenance);
  auto s = with_id(f, "library-provenance");
  REQUIRE(s.size() == 1);
  CHECK(*s[0]->find_value("cann_installs") == "1");
  CHECK_FALSE(has_warning_or_above(f, "library-provenance"));
}

TEST_CASE("library-provenance: two CANN installs in one process, deleted mappings") {
  BundleFacts b = job("2.9.0", "2.9.0.post6", "9.1.0");
  map_file(b, 100, "/usr/local/Ascend/cann-8.5.0/aarch64-linux/lib64/libhccl.so", true);
  auto f = run(std::move(b), analyze_library_provenance);
  auto m = with_id(f, "library-provenance/multiple-cann");
  REQUIRE(m.size() == 1);
  CHECK(m[0]->severity == Severity::error);
  CHECK(m[0]->evidence.size() == 2);
  auto d = with_id(f, "library-provenance/deleted-mapping");
  REQUIRE(d.size() == 1);
  CHECK(d[0]->does_not_prove.find("restart") != std::string::npos);
}

TEST_CASE("library-provenance: libraries of another CANN than ASCEND_HOME_PATH names") {
  BundleFacts b = job("2.9.0", "2.9.0.post6", "9.1.0");
  set_env(b, 100, "ASCEND_HOME_PATH", "/usr/local/Ascend/cann-8.5.0");
  auto f = run(std::move(b), analyze_library_provenance);
  auto x = with_id(f, "library-provenance/foreign-cann");
  REQUIRE(x.size() == 1);
  CHECK(x[0]->severity == Severity::warning);
  BundleFacts ok = job("2.9.0", "2.9.0.post6", "9.1.0");
  set_env(ok, 100, "ASCEND_HOME_PATH", "/usr/local/Ascend/cann-9.1.0");
  CHECK(with_id(run(std::move(ok), analyze_library_provenance), "library-provenance/foreign-cann").empty());
}

TEST_CASE("task-queue-value: level era versus on/off era") {
  CHECK(task_queue_is_level("2.9.0.post6") == true);
  CHECK(task_queue_is_level("2.4.0") == true);
  CHECK(task_queue_is_level("2.3.1.post2") == true);
  CHECK(task_queue_is_level("2.3.1.post1") == false);
  CHECK(task_queue_is_level("2.1.0.post8") == true);
  CHECK(task_queue_is_level("2.1.0.post6") == false);
  CHECK(task_queue_is_level("2.2.0.post2") == false);
  CHECK_FALSE(task_queue_is_level("garbage").has_value());

  BundleFacts bad = job("2.9.0", "2.9.0.post6", "9.1.0");
  set_env(bad, 100, "TASK_QUEUE_ENABLE", "3");
  auto f = run(std::move(bad), analyze_task_queue_value);
  auto t = with_id(f, "localization-mode/task-queue-value");
  REQUIRE(t.size() == 1);
  CHECK(t[0]->severity == Severity::warning);

  BundleFacts old = job("2.1.0", "2.1.0.post6", "8.0.RC2");
  set_env(old, 100, "TASK_QUEUE_ENABLE", "2");
  auto g = run(std::move(old), analyze_task_queue_value);
  REQUIRE(with_id(g, "localization-mode/task-queue-value").size() == 1);
  CHECK(with_id(g, "localization-mode/task-queue-value")[0]->severity == Severity::info);

  BundleFacts good = job("2.9.0", "2.9.0.post6", "9.1.0");
  set_env(good, 100, "TASK_QUEUE_ENABLE", "2");
  CHECK(run(std::move(good), analyze_task_queue_value).empty());
}
