// environment/atb-abi-mismatch: the cxx_abi_N tree ATB's variables name against the ABI of the
// torch version (knowledge/versions/torch_abi.tsv). Reports shaped like the corpus's collect_env
// pastes (tests/data/real/vllm-ascend-1144-atb-abi-env, vllm-ascend-4256-collect-env).
#include <catch2/catch.hpp>

#include <string>

#include "correlator/analyses/atb_abi.h"
#include "knowledge/version_tables.h"

#include "analysis_test_support.h"
#include "bundle_test_util.h"

using namespace triage;

namespace {

std::string report(const std::string& torch, const std::string& env) {
  return "Versions of relevant libraries:\n"
         "[pip3] numpy==1.26.4\n"
         "[pip3] torch==" + torch + "\n"
         "[pip3] torch-npu==2.5.1\n"
         "vLLM Ascend Version: 0.7.3.post1\n"
         "\n"
         "ENV Variables:\n"
         "ASCEND_VISIBLE_DEVICES=0,1,2,3,4,5,6,7\n" + env +
         "ASCEND_TOOLKIT_HOME=/usr/local/Ascend/ascend-toolkit/latest\n";
}

Report analyze(const std::string& text) { return testing::analyze_one("collect_env.txt", text); }

const Finding* mismatch(const Report& r) { return testing::find_finding(r.findings, "environment/atb-abi-mismatch"); }

const std::string kAbi1 = "ATB_HOME_PATH=/usr/local/Ascend/nnal/atb/latest/atb/cxx_abi_1\n";
const std::string kAbi0 = "ATB_HOME_PATH=/usr/local/Ascend/nnal/atb/latest/atb/cxx_abi_0\n";

}  // namespace

TEST_CASE("torch_abi.tsv: pre-2.6 wheels are cxx_abi_0, 2.7 on cxx_abi_1, 2.6 unknown, a cxx11.abi label wins",
          "[atb_abi][knowledge]") {
  const VersionTables& t = builtin_version_tables();
  REQUIRE(t.errors.empty());
  auto abi = [&](const char* v) { const TorchAbiRow* r = torch_abi_row(t, v); return r ? r->cxx11_abi : -1; };
  CHECK(abi("2.5.1") == 0);
  CHECK(abi("2.1.0+cpu") == 0);
  CHECK(abi("2.3.1+cpu.cxx11.abi") == 1);
  CHECK(abi("2.6.0") == -1);
  CHECK(abi("2.7.1+cpu") == 1);
  CHECK(abi("2.9.0") == 1);
  CHECK(abi("not a version") == -1);
  std::vector<std::string> errors;
  std::vector<TorchAbiRow> rows;
  parse_torch_abi_table("torch_from\ttorch_below\tlocal_contains\tcxx11_abi\tsource\n-\t2.6\t-\t2\tx\n", rows, errors);
  CHECK(rows.empty());
  CHECK(errors.size() == 1);
}

TEST_CASE("ATB_HOME_PATH on cxx_abi_1 with torch 2.5.1 is a mismatch that ranks environment-paths first",
          "[atb_abi][verdict]") {
  Report r = analyze(report("2.5.1", kAbi1));
  const Finding* f = mismatch(r);
  REQUIRE(f);
  CHECK(f->severity == Severity::warning);
  CHECK(*f->find_value("atb_abi") == "1");
  CHECK(*f->find_value("torch_abi") == "0");
  CHECK(f->evidence.size() == 2);  // the ATB_HOME_PATH line and the torch line
  REQUIRE(!r.verdict.ranked.empty());
  CHECK(r.verdict.ranked.front().id == "environment-paths");
}

TEST_CASE("matching ABIs, or a torch whose ABI is not known, raise nothing", "[atb_abi]") {
  CHECK(!mismatch(analyze(report("2.5.1", kAbi0))));
  CHECK(!mismatch(analyze(report("2.7.1+cpu", kAbi1))));
  CHECK(!mismatch(analyze(report("2.6.0", kAbi1))));
  CHECK(!mismatch(analyze(report("2.6.0", kAbi0))));
  // no ATB variable at all
  CHECK(!mismatch(analyze(report("2.5.1", ""))));
}

TEST_CASE("the other direction and the LD_LIBRARY_PATH fallback", "[atb_abi]") {
  const Finding* f = nullptr;
  Report cxx11 = analyze(report("2.3.1+cpu.cxx11.abi", kAbi0));
  REQUIRE((f = mismatch(cxx11)));
  CHECK(*f->find_value("torch_abi") == "1");
  Report ld = analyze(report("2.5.1",
                             "LD_LIBRARY_PATH=/usr/lib:/usr/local/Ascend/nnal/atb/latest/atb/cxx_abi_1/lib:/usr/lib64\n"));
  REQUIRE((f = mismatch(ld)));
  CHECK(f->title.find("LD_LIBRARY_PATH") != std::string::npos);
  // a cxx_abi_ directory outside ATB is not ATB's
  CHECK(!mismatch(analyze(report("2.5.1", "LD_LIBRARY_PATH=/opt/other/cxx_abi_1/lib\n"))));
}

TEST_CASE("a collected process: its environ against its own pip's torch, else the default pip", "[atb_abi]") {
  BundleFacts b;
  ProcessInfo& p = b.processes.by_pid[4242];
  p.pid = 4242;
  p.has_environ = true;
  p.environ = {{"ATB_HOME_PATH", "/usr/local/Ascend/nnal/atb/latest/atb/cxx_abi_1"}};
  p.evidence.push_back(EvidenceRef{"processes/4242/environ", 0, 0, ""});
  PackageRow old_torch{"torch", "torch", "2.5.1", "", "pip-list", EvidenceRef{"python/pip-list.json", 0, 0, ""}};
  b.libraries.default_pip.push_back(old_torch);
  auto found = testing::run_analysis(analyze_atb_abi, b);
  const Finding* f = testing::find_finding(found, "environment/atb-abi-mismatch");
  REQUIRE(f);
  CHECK(f->title.find("pid 4242") != std::string::npos);
  CHECK(f->evidence.size() == 2);
  // the process's own pip holds a C++11-ABI torch: its view wins over the default pip
  PackageRow new_torch = old_torch;
  new_torch.version = "2.7.1";
  b.libraries.process(4242).pip.push_back(new_torch);
  CHECK(testing::run_analysis(analyze_atb_abi, b).empty());
}
