#include <catch2/catch.hpp>

#include "model/host_facts.h"
#include "model_test_support.h"

using namespace triage;
using triage::test::run_kind;

TEST_CASE("version files: driver, firmware, CANN component, install.info, NNAL form") {
  BundleFacts facts;
  run_kind(SourceKind::driver_version_info, "ascend/driver-version.info",
           "Version=26.0.rc1\ncompatible_version=[V100R001C25],[V100R001C11]\n"
           "compatible_version_fw=[7.0.0,9.9.99]\n", facts);
  REQUIRE(facts.libraries.driver_version);
  CHECK(facts.libraries.driver_version->get("Version") == "26.0.rc1");
  CHECK(facts.libraries.driver_version->find("compatible_version_fw")->evidence.line == 3);
  run_kind(SourceKind::cann_version_info, "ascend/cann/c2/share/info/ops/version.info",
           "Version=9.1.0.0.243\nrequired_package_toolkit_version=\"9.1\"\n", facts);
  run_kind(SourceKind::cann_install_info, "ascend/cann/c1/aarch64-linux/ascend_toolkit_install.info",
           "package_name=Ascend-cann-toolkit\nversion=9.1.0\ninnerversion=V100R001C11SPC001B243\n",
           facts);
  ParseStats st = run_kind(SourceKind::cann_version_info, "ascend/cann/c9/nnal/version.info",
                           "Ascend-cann-atb : 8.2.RC1\nno separator here\n", facts);
  CHECK(st.malformed == 1);
  REQUIRE(facts.libraries.cann_files.size() == 3);
  CHECK(facts.libraries.cann_files[0].cann_id == "c2");
  CHECK(facts.libraries.cann_files[0].component == "ops");
  CHECK(facts.libraries.cann_files[0].get("required_package_toolkit_version") == "9.1");
  CHECK(facts.libraries.cann_files[1].component == "toolkit");
  CHECK(facts.libraries.cann_files[1].get("innerversion") == "V100R001C11SPC001B243");
  CHECK(facts.libraries.cann_files[2].get("Ascend-cann-atb") == "8.2.RC1");
}

TEST_CASE("index.tsv, paths.tsv, packages.tsv, torch_npu version.py") {
  BundleFacts facts;
  run_kind(SourceKind::cann_index_tsv, "ascend/cann/index.tsv",
           "id\tinstall_dir\tkind\tversion\tresolved_dir\tseen_from\n"
           "c1\t/usr/local/Ascend/cann-9.1.0\ttoolkit\t9.1.0\t/usr/local/Ascend/cann-9.1.0\thost\n",
           facts);
  REQUIRE(facts.libraries.cann_index.size() == 1);
  CHECK(facts.libraries.cann_index[0].version == "9.1.0");
  ParseStats st = run_kind(SourceKind::ascend_paths_tsv, "ascend/paths.tsv",
           "path\texists\ttype\tresolved_path\tseen_from\n"
           "/usr/local/Ascend/ascend-toolkit/latest\t0\t-\t\thost\n"
           "/usr/local/Ascend/cann-9.1.0\t1\td\t/usr/local/Ascend/cann-9.1.0\tpid:48213\n"
           "short\trow\n", facts);
  CHECK(st.malformed == 1);
  REQUIRE(facts.libraries.paths.size() == 2);
  CHECK(facts.libraries.paths[0].exists == false);
  CHECK(facts.libraries.paths[1].seen_from == "pid:48213");
  run_kind(SourceKind::packages_tsv, "processes/5/packages.tsv",
           "name\tversion\tlocation\tkind\ntorch-npu\t2.9.0.post6\t/site\tdist-info\n", facts);
  run_kind(SourceKind::packages_tsv, "python/packages.tsv",
           "name\tversion\tlocation\tkind\ntorch\t2.9.0\t/usr/lib\tdist-info\n", facts);
  CHECK(facts.libraries.by_pid.at(5).packages.at(0).normalized == "torch-npu");
  CHECK(facts.libraries.default_packages.at(0).name == "torch");
  run_kind(SourceKind::torch_npu_version_py, "processes/5/torch_npu-version.py",
           "__version__ = '2.9.0.post6'\ngit_version = '2ab7354'\nother = 1\n", facts);
  CHECK(facts.libraries.by_pid.at(5).torch_npu_version == "2.9.0.post6");
  CHECK(facts.libraries.by_pid.at(5).torch_npu_git == "2ab7354");
}

TEST_CASE("pip show: blocks become package rows with PEP 503 names") {
  BundleFacts facts;
  ParseStats st = run_kind(SourceKind::pip_show, "python/pip-show.txt",
                           "Name: torch-npu\nVersion: 2.9.0.post6\nSummary: x\nLocation: /site\n"
                           "Requires: \n---\nName: torch\nVersion: 2.9.0\nno colon here\n",
                           facts);
  CHECK(st.malformed == 1);
  CHECK(st.parsed + st.unrecognised + st.malformed == st.lines);
  REQUIRE(facts.libraries.default_pip.size() == 2);
  CHECK(facts.libraries.default_pip[0].normalized == "torch-npu");
  CHECK(facts.libraries.default_pip[0].location == "/site");
  CHECK(facts.libraries.default_pip[1].version == "2.9.0");
  BundleFacts none;
  ParseStats e = run_kind(SourceKind::pip_show, "python/pip-show.txt",
                          "bash: pip: command not found\n", none);
  CHECK_FALSE(e.not_collected.empty());
  CHECK(none.libraries.default_pip.empty());
}
