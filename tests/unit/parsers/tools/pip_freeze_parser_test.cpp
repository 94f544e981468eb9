// `pip freeze` output and requirements files read into default-pip package rows (kind
// "pip-freeze"): pinned rows with extras, `===`, markers and comments; a wheel's version
// from a direct reference; editable installs and options read without a row; what is not a
// requirement counted. Forms as pip's documentation prints them (`pip freeze`, requirements
// file format) with the Ascend packages the version matrix reads.
#include <catch2/catch.hpp>

#include "ingest/classify.h"
#include "model_test_support.h"

using namespace triage;
using triage::test::run_kind;

namespace {

const PackageRow* row_of(const BundleFacts& f, std::string_view normalized) {
  for (const auto& r : f.libraries.default_pip)
    if (r.normalized == normalized) return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("pip freeze: pinned rows become default-pip rows with their line", "[pip-freeze]") {
  BundleFacts facts;
  auto stats = run_kind(SourceKind::pip_freeze, "pip-freeze.txt",
                        "absl-py==2.1.0\n"
                        "decorator==5.1.1\n"
                        "torch==2.1.0\n"
                        "torch-npu==2.1.0.post3\n"
                        "transformers[torch]==4.41.2\n"
                        "numpy===1.26.4\n"
                        "typing_extensions==4.12.2 ; python_version < \"3.13\"\n"
                        "attrs==23.2.0  # via -r requirements.in\n",
                        facts);
  CHECK(facts.libraries.has_default_pip);
  REQUIRE(facts.libraries.default_pip.size() == 8);
  const PackageRow* npu = row_of(facts, "torch-npu");
  REQUIRE(npu);
  CHECK(npu->name == "torch-npu");
  CHECK(npu->version == "2.1.0.post3");
  CHECK(npu->kind == "pip-freeze");
  CHECK(npu->evidence.line == 4);
  CHECK(row_of(facts, "transformers")->version == "4.41.2");  // extras are not the name
  CHECK(row_of(facts, "numpy")->version == "1.26.4");
  CHECK(row_of(facts, "typing-extensions")->version == "4.12.2");  // PEP 503 name, marker cut
  CHECK(row_of(facts, "attrs")->version == "23.2.0");
  CHECK(stats.parsed == 8);
  CHECK(stats.unrecognised == 0);
}

TEST_CASE("pip freeze: direct references, editable installs, options and comments", "[pip-freeze]") {
  BundleFacts facts;
  auto stats = run_kind(SourceKind::pip_freeze, "freeze.txt",
                        "# pip freeze in the job's venv\n"
                        "torch_npu @ file:///tmp/whl/torch_npu-2.1.0.post8-cp310-cp310-manylinux_2_17_aarch64.whl\n"
                        "mindspeed @ file:///home/user/MindSpeed\n"
                        "-e git+https://gitee.com/ascend/MindSpeed.git@0a1b2c3#egg=mindspeed\n"
                        "--extra-index-url https://mirrors.huaweicloud.com/repository/pypi/simple\n"
                        "\n"
                        "other @ https://example.org/dist/another_pkg-1.0-py3-none-any.whl\n",
                        facts);
  REQUIRE(facts.libraries.default_pip.size() == 1);  // only the wheel of its own name
  const PackageRow* npu = row_of(facts, "torch-npu");
  REQUIRE(npu);
  CHECK(npu->version == "2.1.0.post8");
  CHECK(npu->evidence.line == 2);
  CHECK(stats.parsed == 7);
  CHECK(stats.unrecognised == 0);
}

TEST_CASE("pip freeze: lines that are not requirements are counted, not kept", "[pip-freeze]") {
  BundleFacts facts;
  auto stats = run_kind(SourceKind::pip_freeze, "freeze.txt",
                        "torch==2.1.0\n"
                        "torch-npu==\n"                  // no version: malformed
                        "WARNING: Skipping foo as it is not installed.\n"
                        "pip install torch==2.1.0\n",  // a command, not a row
                        facts);
  CHECK(facts.libraries.default_pip.size() == 1);
  CHECK(stats.parsed == 1);
  CHECK(stats.malformed == 1);
  CHECK(stats.unrecognised == 2);
}

TEST_CASE("pip freeze: a paste of its rows sniffs as pip_freeze, not as an environment", "[pip-freeze]") {
  std::string freeze = "absl-py==2.1.0\nattrs==23.2.0\nnumpy==1.26.4\ntorch==2.1.0\ntorch-npu==2.1.0.post3\n"
                       "mindspeed @ file:///home/user/MindSpeed\n";
  CHECK(sniff_content(freeze, true).kind == SourceKind::pip_freeze);
  // KEY=VALUE lines stay an environment listing; `pip list` columns stay pip_list_text.
  CHECK(sniff_content("PATH=/usr/bin\nASCEND_HOME_PATH=/usr/local/Ascend\nHOME=/root\n", true).kind ==
        SourceKind::proc_environ);
  CHECK(sniff_content("torch      2.1.0\ntorch-npu  2.1.0.post3\n", true).kind == SourceKind::pip_list_text);
}
