// pip list JSON, env/collector-env, --knowledge overrides of the version tables and the
// PCI id table (issues 8 and 9 leftovers).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "correlator/analyses/driver_binding.h"
#include "correlator/analyses/environment.h"
#include "correlator/analyses/version_matrix.h"
#include "ingest/knowledge_check.h"
#include "knowledge/knowledge.h"

#include "bundle_test_util.h"
#include "library_facts_util.h"
#include "model_test_support.h"

using namespace triage;
using namespace libtest;
using triage::test::run_kind;
using namespace std::string_literals;

namespace {

std::vector<Finding> run_with(const BundleFacts& b, AnalysisFn fn, const AnalyzeOptions& options = {}) {
  EvidenceSet set;
  set.bundles.push_back(b);
  std::vector<Finding> out;
  fn(AnalysisContext::load(set, options), out);
  return out;
}

// What `pip list --format=json` prints (pip 23/24: one line; editable installs add a field).
const std::string kPipList =
    R"([{"name": "numpy", "version": "1.26.4"}, {"name": "torch", "version": "2.8.0+cpu"}, )"
    R"({"name": "torch-npu", "version": "2.8.0.post2"}, {"name": "mytrainer", "version": "0.1.dev3+g1a2b3c4", )"
    R"("editable_project_location": "/home/u/mytrainer"}])"
    "\n";

}  // namespace

TEST_CASE("pip list JSON: rows with PEP 503 names, per process or default", "[pip_list]") {
  BundleFacts facts;
  ParseStats st = run_kind(SourceKind::pip_list_json, "processes/48213/pip-list.json", kPipList, facts);
  CHECK(st.lines == 1);
  CHECK(st.parsed == 1);
  CHECK(st.malformed == 0);
  const auto& rows = facts.libraries.by_pid.at(48213).pip;
  REQUIRE(rows.size() == 4);
  CHECK(facts.libraries.by_pid.at(48213).has_pip);
  CHECK(rows[2].normalized == "torch-npu");
  CHECK(rows[2].version == "2.8.0.post2");
  CHECK(rows[2].kind == "pip-list");
  CHECK(rows[3].location == "/home/u/mytrainer");
  CHECK(rows[2].evidence.line == 1);
  CHECK(rows[2].evidence.excerpt.find("torch-npu") != std::string::npos);
  BundleFacts d;
  run_kind(SourceKind::pip_list_json, "python/pip-list.json", "[\n  {\"name\": \"Torch_NPU\", \"version\": \"2.9.0.post6\"}\n]\n", d);
  REQUIRE(d.libraries.default_pip.size() == 1);
  CHECK(d.libraries.default_pip[0].normalized == "torch-npu");
  CHECK(d.libraries.default_pip[0].evidence.line == 2);
}

TEST_CASE("pip list JSON: broken input is counted with its line and offset, rows before kept", "[pip_list]") {
  BundleFacts facts;
  // Cut mid-object (a killed pip): the first row survives.
  std::string cut = "[\n{\"name\": \"torch\", \"version\": \"2.8.0\"},\n{\"name\": \"torch-npu\", \"vers";
  ParseStats st = run_kind(SourceKind::pip_list_json, "python/pip-list.json", cut, facts);
  CHECK(st.malformed >= 1);
  CHECK(st.parsed + st.unrecognised + st.malformed == st.lines);
  REQUIRE_FALSE(st.samples_of_malformed.empty());
  CHECK(st.samples_of_malformed[0].entry.ends_with("python/pip-list.json"));
  CHECK(st.samples_of_malformed[0].excerpt.find("pip list JSON") != std::string::npos);
  CHECK(st.samples_of_malformed[0].line >= 2);
  CHECK(facts.libraries.default_pip.size() == 1);
  for (std::string bad : {std::string("{\"name\": \"x\"}\n"), std::string("[1, 2]\n"), std::string("[{\"name\": 5}]\n"),
                          std::string("\x00\x01[", 3), std::string("[{\"name\":\"a\",\"version\":\"1\"}] trailing\n")}) {
    BundleFacts g;
    ParseStats s = run_kind(SourceKind::pip_list_json, "python/pip-list.json", bad, g);
    CHECK(s.parsed + s.unrecognised + s.malformed == s.lines);
    CHECK(s.malformed >= 1);
  }
  BundleFacts n;
  ParseStats e = run_kind(SourceKind::pip_list_json, "python/pip-list.json", "bash: pip: command not found\n", n);
  CHECK_FALSE(e.not_collected.empty());
  CHECK(n.libraries.default_pip.empty());
}

TEST_CASE("version-matrix precedence: packages.tsv beside libtorch_npu.so > process pip > default pip", "[pip_list]") {
  auto wheel_of = [](const BundleFacts& b) {
    auto out = run_with(b, analyze_version_matrix);
    auto f = with_id(out, "version-matrix/torch-npu-cann");
    REQUIRE(f.size() == 1);
    return std::make_pair(*f[0]->find_value("torch_npu"), *f[0]->find_value("torch_npu_source"));
  };
  BundleFacts b = job("2.8.0", "2.8.0.post2", "8.5.0");
  b.libraries.process(100).pip.push_back(PackageRow{"torch-npu", "torch-npu", "2.8.0.post4", "", "pip-list", ev("processes/100/pip-list.json")});
  b.libraries.process(100).has_pip = true;
  b.libraries.default_pip.push_back(PackageRow{"torch-npu", "torch-npu", "2.9.0.post6", "", "pip-list", ev("python/pip-list.json")});
  CHECK(wheel_of(b).first == "2.8.0.post2");  // beside the mapped library wins
  // Without packages.tsv: the process's pip.
  b.libraries.process(100).packages.clear();
  CHECK(wheel_of(b) == std::make_pair(std::string("2.8.0.post4"), std::string("the process's pip")));
  // Without either: the default pip.
  b.libraries.process(100).pip.clear();
  CHECK(wheel_of(b).first == "2.9.0.post6");
}

TEST_CASE("env/collector-env: parsed, and differences are info only", "[collector_env]") {
  BundleFacts b = job("2.9.0", "2.9.0.post6", "9.1.0");
  std::string env = "ASCEND_HOME_PATH=/usr/local/Ascend/cann-8.5.0\0LD_LIBRARY_PATH=/usr/local/Ascend/driver/lib64\0"
                    "ASCEND_RT_VISIBLE_DEVICES=0\0broken\0"s;
  ParseStats st = run_kind(SourceKind::collector_env, "env/collector-env", env, b);
  CHECK(st.parsed == 3);
  CHECK(st.malformed == 1);
  CHECK(st.parsed + st.unrecognised + st.malformed == st.lines);
  REQUIRE(b.libraries.collector_env.size() == 3);
  CHECK(b.libraries.collector_env[0].key == "ASCEND_HOME_PATH");
  set_env(b, 100, "ASCEND_HOME_PATH", "/usr/local/Ascend/cann-9.1.0");
  set_env(b, 100, "LD_LIBRARY_PATH", "/usr/local/Ascend/driver/lib64");
  set_env(b, 100, "HCCL_CONNECT_TIMEOUT", "1200");
  set_env(b, 100, "HOME", "/root");
  b.manifest.sudo_user = "alice";
  auto out = run_with(b, analyze_environment);
  auto f = with_id(out, "environment/collector-env-differs");
  REQUIRE(f.size() == 1);
  CHECK(f[0]->severity == Severity::info);
  CHECK(*f[0]->find_value("differ") == "ASCEND_HOME_PATH");
  CHECK(*f[0]->find_value("only_process") == "HCCL_CONNECT_TIMEOUT");
  CHECK(*f[0]->find_value("only_collector") == "ASCEND_RT_VISIBLE_DEVICES");
  CHECK(f[0]->observed.find("via sudo from alice") != std::string::npos);
  CHECK(*f[0]->find_value("pids") == "100");
  CHECK_FALSE(f[0]->evidence.empty());
  CHECK_FALSE(has_warning_or_above(out, "environment/collector-env"));
  // A second process with the same differences shares the finding.
  set_env(b, 101, "ASCEND_HOME_PATH", "/usr/local/Ascend/cann-9.1.0");
  set_env(b, 101, "LD_LIBRARY_PATH", "/usr/local/Ascend/driver/lib64");
  set_env(b, 101, "HCCL_CONNECT_TIMEOUT", "1200");
  auto out2 = run_with(b, analyze_environment);
  auto two = with_id(out2, "environment/collector-env-differs");
  REQUIRE(two.size() == 1);
  CHECK(*two[0]->find_value("pids") == "100 101");
  // Same variables: nothing.
  BundleFacts same = job("2.9.0", "2.9.0.post6", "9.1.0");
  run_kind(SourceKind::collector_env, "env/collector-env", "ASCEND_HOME_PATH=/a\n", same);
  set_env(same, 100, "ASCEND_HOME_PATH", "/a");
  set_env(same, 100, "HOME", "/root");
  CHECK(with_id(run_with(same, analyze_environment), "environment/collector-env-differs").empty());
}

TEST_CASE("a knowledge directory's versions/*.tsv override changes a version-matrix judgement", "[knowledge]") {
  triage::testing::TempDir dir;
  std::filesystem::create_directories(dir / "versions");
  // A site table declaring torch_npu 2.8.0.post4 with CANN 8.5.0 (the built-in pairs it with 9.0.0).
  std::ofstream(dir / "versions/torch_npu_cann.tsv")
      << "torch_npu\tbranch_or_tag\ttorch\tcann\tstatus\tsource\n"
         "2.8.0.post4\tsite-build\t2.8.0\t8.5.0\tdeclared\tsite test table\n";
  BundleFacts b = job("2.8.0", "2.8.0.post4", "8.5.0");
  auto out_builtin = run_with(b, analyze_version_matrix);
  auto builtin = with_id(out_builtin, "version-matrix/torch-npu-cann");
  REQUIRE(builtin.size() == 1);
  CHECK(*builtin[0]->find_value("verdict") == "incompatible");
  AnalyzeOptions o;
  o.knowledge_dir = dir.path();
  auto out_over = run_with(b, analyze_version_matrix, o);
  auto over = with_id(out_over, "version-matrix/torch-npu-cann");
  REQUIRE(over.size() == 1);
  CHECK(*over[0]->find_value("verdict") == "compatible");
  CHECK(*over[0]->find_value("table_source") == "site test table");
  // The built-in tables stay as they were for everyone else.
  CHECK(version_tables_for("").wheels.size() > 10);
  CHECK(version_tables_for(o.knowledge_dir).wheels.size() == 1);
}

TEST_CASE("PCI ids and device events are knowledge data, checked by knowledge check", "[knowledge]") {
  const KnowledgeBase& kb = knowledge_for("");
  CHECK(kb.errors.empty());
  CHECK(npu_model("19e5", "d802", kb) == "910B");
  CHECK(npu_model("19E5", "D803", kb) == "910_93 (A3)");
  CHECK(npu_model("19e5", "a222", kb).empty());
  REQUIRE(kb.find_device_event("0x80E01809"));
  CHECK(kb.find_device_event("0x80E01809")->exception_kind == "hbm-ecc");
  CHECK(kb.find_device_event("0x80c98001")->exception_kind == "aicore-timeout");
  CHECK(check_knowledge_file("vendor\tdevice\tmodel\tsource\n19e5\td802\t910B\tx\n", "pci-ids.tsv").ok());
  auto bad = check_knowledge_file("vendor\tdevice\tmodel\tsource\n19e5\td8\t910B\tx\n19e5\td802\t\tx\n", "pci-ids.tsv");
  CHECK(bad.problems.size() == 2);
  auto ev = check_knowledge_file("event_id\texception_kind\tname\tmeaning\tsource\n0x80E0180\thbm-ecc\tn\tm\ts\n"
                                 "0x80E01809\thbm-ecc\tn\tm\ts\n0x80e01809\thbm-ecc\tn\tm\ts\n",
                                 "knowledge/device-events.tsv");
  CHECK(ev.problems.size() == 2);  // a short id, a duplicate (case-insensitive)
  // An override that drops the 910B row changes which functions are NPUs.
  triage::testing::TempDir dir;
  std::ofstream(dir / "pci-ids.tsv") << "vendor\tdevice\tmodel\tsource\n19e5\td806\t950\tsite\n";
  const KnowledgeBase& site = knowledge_for(dir.path());
  CHECK(npu_model("19e5", "d802", site).empty());
  CHECK(npu_model("19e5", "d806", site) == "950");
}
