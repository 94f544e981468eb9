// Tables and environment reports people paste: `npu-smi info -t topo`, the vLLM collect_env
// report (pip versions, ENV listing, npu-smi table, CANN block), MindSpore's run_check.
// Files verbatim under tests/fixtures/pastes/ (sources in SOURCES.md there).
#include <catch2/catch.hpp>

#include "ingest/classify.h"
#include "bundle_test_util.h"

using namespace triage;
using namespace triage::testing;

namespace {

std::string paste(std::string_view name) {
  return read_file(std::string(TEST_DATA_DIR) + "/fixtures/pastes/" + std::string(name));
}

std::string without_first_line(const std::string& s) { return s.substr(s.find('\n') + 1); }

const PackageRow* pip_row(const BundleFacts& b, std::string_view normalized) {
  for (const auto& r : b.libraries.default_pip)
    if (r.normalized == normalized) return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("npu-smi info -t topo gives the link matrix and CPU affinity", "[tables][topo]") {
  std::string topo = without_first_line(paste("ms-swift-npu-topo.txt"));
  CHECK(sniff_content(topo, true).kind == SourceKind::npu_smi_topo);
  TempDir dir;
  write_file(dir / "topo.txt", topo);
  LoadResult r = load({dir / "topo.txt"});
  const BundleFacts& b = r.evidence.bundles.at(0);
  REQUIRE(b.devices.topologies.size() == 1);
  const NpuTopology& t = b.devices.topologies[0];
  REQUIRE(t.npus.size() == 8);
  CHECK(t.npus[7] == "NPU7");
  REQUIRE(t.links.size() == 8);
  CHECK(t.links[0][0] == "X");
  CHECK(t.links[0][1] == "HCCS");
  CHECK(t.links[7][7] == "X");
  CHECK(t.cpu_affinity[0] == "144-167");
  CHECK(t.cpu_affinity[6] == "48-71");
  CHECK(t.evidence.line == 1);
  const InventoryEntry& e = b.inventory.entries.at(0);
  CHECK(e.stats.lines == 19);
  CHECK(e.stats.parsed == 19);  // header, 8 rows, legend and blank lines
}

TEST_CASE("topo near misses: an npu-smi info row and a legend-like sentence are not topo rows",
          "[tables][topo]") {
  TempDir dir;
  write_file(dir / "t.txt",
             "\t   NPU0       NPU1       NPU2       NPU3       NPU4       NPU5       NPU6       NPU7       CPU Affinity\n"
             "| 0     910B3               | OK            | 101.8       43                0    / 0             |\n"
             "NPU0 = the first device, see the table below\n"
             "NPU9       X          HCCS\n");
  LoadResult r = load({dir / "t.txt"});
  const BundleFacts& b = r.evidence.bundles.at(0);
  REQUIRE(b.devices.topologies.size() == 1);
  CHECK(b.devices.topologies[0].links.empty());
  CHECK(b.inventory.entries.at(0).stats.unrecognised == 3);
}

TEST_CASE("a paste of topo and info with their prompts is two segments of two kinds", "[tables][segment]") {
  TempDir dir;
  write_file(dir / "ticket.txt", paste("ms-swift-npu-topo.txt") + paste("ms-swift-npu-info.txt"));
  LoadResult r = load({dir / "ticket.txt"});
  const BundleFacts& b = r.evidence.bundles.at(0);
  const InventoryEntry& e = b.inventory.entries.at(0);
  CHECK(e.kind == SourceKind::mixed_text);
  REQUIRE(e.stats.segments.size() == 2);
  CHECK(e.stats.segments[0].kind == SourceKind::npu_smi_topo);
  CHECK(e.stats.segments[0].command == "npu-smi info -t topo");
  CHECK(e.stats.segments[1].kind == SourceKind::npu_smi_info);
  CHECK(e.stats.segments[1].first_line == 21);
  CHECK(e.stats.unrecognised == 0);
  REQUIRE(b.devices.topologies.size() == 1);
  CHECK(b.devices.topologies[0].evidence.line == 2);
  REQUIRE(b.devices.info);
  CHECK(b.devices.info->version == "24.1.rc1.b030");
  CHECK(b.devices.info->chips.size() == 8);
}

TEST_CASE("a collect_env report becomes package versions, an npu-smi table and the CANN version",
          "[tables][framework_env]") {
  std::string report = paste("vllm-ascend-394-collect-env.txt");
  TempDir dir;
  write_file(dir / "collect_env.txt", report);
  LoadResult r = load({dir / "collect_env.txt"});
  const BundleFacts& b = r.evidence.bundles.at(0);
  const InventoryEntry& e = b.inventory.entries.at(0);
  CHECK(e.kind == SourceKind::mixed_text);
  std::vector<SourceKind> kinds;
  for (const auto& s : e.stats.segments) kinds.push_back(s.kind);
  // vLLM's plug-in log lines in front are job output (the vllm_log shape); the ENV Variables
  // listing belongs to the report; the table and the CANN block are segments of their own.
  CHECK(kinds == std::vector<SourceKind>{SourceKind::python_log, SourceKind::framework_env,
                                         SourceKind::npu_smi_info, SourceKind::cann_install_info});
  REQUIRE(e.stats.segments.size() == 4);
  CHECK(e.stats.segments[1].first_line == 7);
  CHECK(e.stats.segments[2].first_line == 101);
  CHECK(e.stats.segments[3].first_line == 152);
  const PackageRow* npu = pip_row(b, "torch-npu");
  REQUIRE(npu);
  CHECK(npu->version == "2.5.1.dev20250308");
  CHECK(npu->evidence.line == 65);
  REQUIRE(pip_row(b, "torch"));
  CHECK(pip_row(b, "torch")->version == "2.5.1");
  REQUIRE(pip_row(b, "vllm-ascend"));
  CHECK(pip_row(b, "vllm-ascend")->version == "0.1.dev107+g3fb3b5c.d20250325");
  REQUIRE(b.devices.info);
  CHECK(b.devices.info->chips.size() == 8);
  REQUIRE(b.libraries.cann_files.size() == 1);
  CHECK(b.libraries.cann_files[0].component == "toolkit");
  CHECK(b.libraries.cann_files[0].get("version") == "8.0.0");
  CHECK(b.libraries.cann_files[0].find("version")->evidence.line == 153);
  // Every line is read by its shape but `CANN:`, the table segment's last line; the six vLLM
  // INFO lines are job output of a known shape that names nothing to extract.
  CHECK(e.stats.unrecognised == 7);
  CHECK(e.stats.lines_recognised == 157);
}

TEST_CASE("MindSpore's run_check prints its version", "[tables][framework_env]") {
  // code index id 67135505652 (MindSpore migration guide, expected output, typo verbatim)
  std::string text =
      "MindSpore version: 2.5.0\n"
      "The result of multiplication caclulation is correct, MindSpore has been installed on platform [Ascend] successfully!\n";
  TempDir dir;
  write_file(dir / "run_check.txt", text);
  LoadResult r = load({dir / "run_check.txt"});
  const BundleFacts& b = r.evidence.bundles.at(0);
  CHECK(b.inventory.entries.at(0).kind == SourceKind::framework_env);
  REQUIRE(pip_row(b, "mindspore"));
  CHECK(pip_row(b, "mindspore")->version == "2.5.0");
  CHECK(b.inventory.entries.at(0).stats.unrecognised == 0);
  // near miss: prose that names a version is not a report
  CHECK(sniff_content("For MindSpore version: MindSpore 2.3.0\n", true).kind != SourceKind::framework_env);
}

TEST_CASE("SGLang's check_env after its prompt: package names and versions", "[tables][framework_env]") {
  // The shape of sglang#9646's paste: the prompt names the command, the report follows.
  std::string text =
      "root@pod-1:/sglang-workspace# python3 -m sglang.check_env\n"
      "Python: 3.11.13 (main, Jul 26 2025, 07:27:32) [GCC 11.4.0]\n"
      "PyTorch: 2.6.0+cpu\n"
      "sglang: 0.5.0rc2\n"
      "sgl_kernel: Module Not Found\n"
      "python-multipart: 0.0.20\n"
      "ulimit soft: 2000000\n"
      "numpy_random_seed: 2147483648\n";
  TempDir dir;
  write_file(dir / "env.txt", text);
  LoadResult r = load({dir / "env.txt"});
  const BundleFacts& b = r.evidence.bundles.at(0);
  const InventoryEntry& e = b.inventory.entries.at(0);
  REQUIRE(e.stats.segments.size() == 1);
  CHECK(e.stats.segments[0].kind == SourceKind::framework_env);
  REQUIRE(pip_row(b, "sglang"));
  CHECK(pip_row(b, "sglang")->version == "0.5.0rc2");
  CHECK(pip_row(b, "python-multipart"));
  REQUIRE(pip_row(b, "torch"));
  CHECK(pip_row(b, "torch")->version == "2.6.0+cpu");
  // Near misses: a missing module names no version; a key with a blank is no package.
  CHECK_FALSE(pip_row(b, "sgl_kernel"));
  CHECK_FALSE(pip_row(b, "ulimit soft"));
  CHECK_FALSE(pip_row(b, "numpy_random_seed"));  // a number, not a version
  CHECK(kind_from_command("python -m torch.utils.collect_env") == SourceKind::framework_env);
  CHECK(kind_from_command("lmdeploy check_env") == SourceKind::framework_env);
  CHECK(kind_from_command("python3 -m sglang.launch_server --model x") != SourceKind::framework_env);
}

TEST_CASE("device logs exported as a loose hisi_logs tree are read as the export", "[device][paste]") {
  std::string kbox = read_file(std::string(TEST_DATA_DIR) +
                               "/data/device-logs-bundle/ascend/device-logs/2024-04-20-16-30-05/hisi_logs/device-2/"
                               "20240420162417-271713000/bbox/kbox.txt");
  TempDir dir;
  write_file(dir / "ticket-4711/hisi_logs/device-2/20240420162417-271713000/bbox/kbox.txt", kbox);
  write_file(dir / "ticket-4711/notes.txt", "nothing here\n");
  LoadResult r = load({dir / "ticket-4711"});
  const BundleFacts& b = r.evidence.bundles.at(0);
  const InventoryEntry* e = find_entry(b, "hisi_logs/device-2/20240420162417-271713000/bbox/kbox.txt");
  REQUIRE(e);
  CHECK(e->kind == SourceKind::device_log_export);
  CHECK(e->reason.find("device-log export path") != std::string::npos);
  REQUIRE(!b.devices.memory_errors.empty());
  CHECK(b.devices.memory_errors[0].device == 2);
  // near miss: a file merely named like a device log outside such a tree
  const InventoryEntry* notes = find_entry(b, "notes.txt");
  REQUIRE(notes);
  CHECK(notes->kind != SourceKind::device_log_export);
}

TEST_CASE("a pasted collect_env feeds the version matrix: torch_npu from its pip lines, CANN from its block",
          "[tables][framework_env][cli]") {
  TempDir dir;
  write_file(dir / "collect_env.txt", paste("vllm-ascend-394-collect-env.txt"));
  CliRun run = run_cli({"analyze", "--format", "json", dir / "collect_env.txt"});
  INFO(run.err);
  CHECK(run.out.find("version-matrix/torch-npu-cann") != std::string::npos);
  CHECK(run.out.find("torch_npu 2.5.1.dev20250308") != std::string::npos);
  CHECK(run.out.find("CANN 8.0.0") != std::string::npos);
}

TEST_CASE("accelerate env after its prompt and MindSpore's run_check before plog lines are framework reports",
          "[tables][framework_env][segment]") {
  // huggingface/accelerate PR #1728 (corpus excerpt accelerate-1728-accelerate-env-npu), head
  std::string accelerate =
      "(huggingface) [root@localhost accelerate]# accelerate env\n"
      "\n"
      "Copy-and-paste the text below in your GitHub issue\n"
      "\n"
      "- `Accelerate` version: 0.22.0.dev0\n"
      "- Platform: Linux-4.19.90-vhulk2209.2.0.h1327.eulerosv2r10.aarch64-aarch64-with-glibc2.26\n"
      "- Python version: 3.8.17\n"
      "- Numpy version: 1.24.4\n"
      "- PyTorch version (GPU?): 2.0.1 (False)\n"
      "- PyTorch XPU available: False\n"
      "- PyTorch NPU available: True\n"
      "- System RAM: 755.10 GB\n"
      "- `Accelerate` default config:\n"
      "\t- compute_environment: LOCAL_MACHINE\n"
      "\t- distributed_type: MULTI_NPU\n";
  TempDir dir;
  write_file(dir / "console.txt", accelerate);
  LoadResult r = load({dir / "console.txt"});
  const BundleFacts& b = r.evidence.bundles.at(0);
  const InventoryEntry& e = b.inventory.entries.at(0);
  CHECK(e.kind == SourceKind::mixed_text);
  REQUIRE(e.stats.segments.size() == 1);
  CHECK(e.stats.segments[0].kind == SourceKind::framework_env);
  CHECK(e.stats.segments[0].command == "accelerate env");
  CHECK(e.stats.unrecognised == 0);
  REQUIRE(pip_row(b, "accelerate"));
  CHECK(pip_row(b, "accelerate")->version == "0.22.0.dev0");
  REQUIRE(pip_row(b, "torch"));
  CHECK(pip_row(b, "torch")->version == "2.0.1");

  // MindSpore issue #246 (corpus excerpt mindspore-246-run-check-310p-op-info-json)
  std::string run_check =
      "MindSpore version:  2.1.1\n"
      "The result of multiplication calculation is correct, MindSpore has been installed on platform [Ascend] successfully!\n"
      "[ERROR] KERNEL(40354,fffdd6e1f1e0,python):2023-10-13-09:30:47.546.313 [mindspore/ccsrc/kernel/oplib/op_info_utils.cc:172] "
      "LoadOpInfoJson] Get op info json suffix path failed, soc_version: Ascend310P3\n"
      "[ERROR] KERNEL(40354,fffdd6e1f1e0,python):2023-10-13-09:30:47.546.421 [mindspore/ccsrc/kernel/oplib/op_info_utils.cc:111] "
      "GenerateOpInfos] Load op info json failed, version: Ascend310P3\n";
  write_file(dir / "run_check.txt", run_check);
  LoadResult r2 = load({dir / "run_check.txt"});
  const BundleFacts& b2 = r2.evidence.bundles.at(0);
  const InventoryEntry& e2 = b2.inventory.entries.at(0);
  CHECK(e2.kind == SourceKind::mixed_text);
  REQUIRE(e2.stats.segments.size() == 2);
  CHECK(e2.stats.segments[0].kind == SourceKind::framework_env);
  CHECK(e2.stats.segments[1].first_line == 3);
  REQUIRE(pip_row(b2, "mindspore"));
  CHECK(pip_row(b2, "mindspore")->version == "2.1.1");
}

TEST_CASE("pip list rows kept by grep, without their header, are package versions", "[tables][pip]") {
  // vllm-ascend issue #340 (corpus excerpt vllm-ascend-340-npu-flash-attention-missing/pip-list.txt)
  std::string rows =
      "torch                                    2.5.1\n"
      "torch-npu                                2.5.1rc1\n"
      "torchaudio                               2.5.1\n"
      "torchvision                              0.20.1\n";
  CHECK(sniff_content(rows, true).kind == SourceKind::pip_list_text);
  TempDir dir;
  write_file(dir / "pip-list.txt", rows);
  LoadResult r = load({dir / "pip-list.txt"});
  const BundleFacts& b = r.evidence.bundles.at(0);
  REQUIRE(pip_row(b, "torch-npu"));
  CHECK(pip_row(b, "torch-npu")->version == "2.5.1rc1");
  CHECK(pip_row(b, "torch-npu")->evidence.line == 2);
  CHECK(b.inventory.entries.at(0).stats.unrecognised == 0);
  // near misses: lsmod rows (size and use count), a sentence with a version
  CHECK(sniff_content("drv_pcie_host         1343488  8 drv_devmm_host\nascend_queue  24576  0\n", true).kind !=
        SourceKind::pip_list_text);
  CHECK(sniff_content("Upgrade to  2.5.1\nthen retry  3\nplease\n", true).kind != SourceKind::pip_list_text);
}
