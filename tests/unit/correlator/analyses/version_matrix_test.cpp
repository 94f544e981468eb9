#include <catch2/catch.hpp>

#include "correlator/analyses/version_matrix.h"
#include "analysis_test_support.h"
#include "library_facts_util.h"

using namespace triage;
using namespace libtest;

namespace {
std::vector<Finding> run(BundleFacts b) {
  EvidenceSet set;
  set.bundles.push_back(std::move(b));
  std::vector<Finding> out;
  analyze_version_matrix(testing::context_for(set), out);
  return out;
}
const Finding& wheel(const std::vector<Finding>& fs) {
  auto w = with_id(fs, "version-matrix/torch-npu-cann");
  REQUIRE(w.size() == 1);
  return *w[0];
}
}  // namespace

TEST_CASE("version-matrix on facts: the incident's four combinations") {
  auto a = run(job("2.8.0", "2.8.0.post2", "8.5.0"));
  CHECK(*wheel(a).find_value("verdict") == "compatible");
  CHECK(wheel(a).severity == Severity::info);
  CHECK(*wheel(a).find_value("cann_source") == "maps");
  CHECK(*wheel(a).find_value("torch_npu_source") == "packages.tsv beside libtorch_npu.so");

  auto b = run(job("2.8.0", "2.8.0.post4", "8.5.0"));
  CHECK(*wheel(b).find_value("verdict") == "incompatible");
  CHECK(wheel(b).severity == Severity::error);
  CHECK(wheel(b).observed.find("9.0.0") != std::string::npos);

  // 2.9.0.post6 + 9.1.0, twice (before and after the reboot): compatible, and the finding says
  // the table cannot see driver residue.
  for (int i = 0; i < 2; ++i) {
    auto c = run(job("2.9.0", "2.9.0.post6", "9.1.0"));
    CHECK(*wheel(c).find_value("verdict") == "compatible");
    CHECK(wheel(c).does_not_prove.find("driver residue") != std::string::npos);
  }
}

TEST_CASE("version-matrix on facts: a hotfix wheel is info with the inferred CANN") {
  auto f = run(job("2.8.0", "2.8.0.post3", "8.5.0"));
  CHECK(*wheel(f).find_value("verdict") == "not-declared");
  CHECK(*wheel(f).find_value("inferred_cann") == "8.5.x");
  CHECK(wheel(f).severity == Severity::info);
}

TEST_CASE("version-matrix: CANN from the environment when nothing is mapped; pip fallbacks") {
  BundleFacts b;
  b.libraries.process(7).has_packages = true;
  package(b, 7, "torch_npu", "2.8.0.post4");
  set_env(b, 7, "ASCEND_HOME_PATH", "/usr/local/Ascend/cann-9.0.0");
  auto f = run(std::move(b));
  CHECK(*wheel(f).find_value("cann_source") == "ASCEND_HOME_PATH");
  CHECK(*wheel(f).find_value("verdict") == "compatible");
  CHECK(*wheel(f).find_value("torch_npu_source") == "the process's packages.tsv");
}

TEST_CASE("version-matrix: CANN vs driver and driver vs firmware from version files") {
  BundleFacts b = job("2.9.0", "2.9.0.post6", "9.1.0");
  VersionFile d;
  d.lines = {{"Version", "25.0.rc1.1", ev("ascend/driver-version.info", 1)},
             {"compatible_version_fw", "[7.0.0,7.7.99]", ev("ascend/driver-version.info", 2)}};
  b.libraries.driver_version = d;
  VersionFile fw;
  fw.lines = {{"Version", "7.7.0.1.231", ev("ascend/firmware-version.info", 1)}};
  b.libraries.firmware_version = fw;
  auto f = run(std::move(b));
  auto cd = with_id(f, "version-matrix/cann-driver");
  REQUIRE(cd.size() == 1);
  CHECK(*cd[0]->find_value("verdict") == "incompatible");  // CANN 9.1: not 25.0.X
  CHECK(cd[0]->severity == Severity::error);
  auto df = with_id(f, "version-matrix/driver-firmware");
  REQUIRE(df.size() == 1);
  CHECK(*df[0]->find_value("verdict") == "compatible");
  CHECK(df[0]->severity == Severity::info);
}
