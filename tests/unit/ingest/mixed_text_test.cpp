// Mixed pastes: prompts, job output, a dmesg section and npu-smi output in one file are split
// into segments, each parsed as its kind with the file's line numbers. Lines are verbatim from
// tests/fixtures/reference/real-log-excerpts.md (sections 2.1, 3.1, 3.2, 4.4, 4.5).
#include <catch2/catch.hpp>
#include <simdjson.h>

#include <fmt/format.h>

#include "bundle_test_util.h"
#include "ingest/classify.h"
#include "ingest/segment.h"

using namespace triage;
using namespace triage::testing;

namespace {

std::string cmd(std::string_view line) {
  auto c = prompt_command(line);
  return c ? std::string(*c) : std::string("(none)");
}

std::string join(std::initializer_list<std::string_view> blocks) {
  std::string out;
  for (auto b : blocks) {
    out += b;
    if (!out.empty() && out.back() != '\n') out += '\n';
  }
  return out;
}

// Section 3.1: ACL sample output, then the prompt and dmesg (Ascend/samples #16).
const std::string k31 = reference_blocks("3.1").at(0);

const InventoryEntry& only_entry(const LoadResult& r) {
  REQUIRE(r.evidence.bundles.size() == 1);
  REQUIRE(r.evidence.bundles[0].inventory.entries.size() == 1);
  return r.evidence.bundles[0].inventory.entries[0];
}

}  // namespace

TEST_CASE("prompt lines people paste give their command", "[segment][prompt]") {
  CHECK(cmd("root@senfetech-pc:/usr/local/samples/cplusplus/level2_simple_inference/1_classification/"
            "resnet50_imagenet_classification/out# dmesg ") == "dmesg");
  CHECK(cmd("root@aa6890a14c34:/# npu-smi info") == "npu-smi info");
  CHECK(cmd("/usr/local/Ascend/driver# cat version.info") == "cat version.info");
  CHECK(cmd("# cat /usr/local/Ascend/driver/version.info") == "cat /usr/local/Ascend/driver/version.info");
  CHECK(cmd("$ grep -nr 'silent_check_v[2-9].cc:.*SilentCheck' device-*") ==
        "grep -nr 'silent_check_v[2-9].cc:.*SilentCheck' device-*");
  CHECK(cmd("        /usr/local/bin/npu-smi info -i 0 -c 0 -t health") ==
        "/usr/local/bin/npu-smi info -i 0 -c 0 -t health");
  // near misses: a version.cfg header, a C macro, log lines, key=value, an e-mail-like name
  CHECK(cmd("# version: 1.0") == "(none)");
  CHECK(cmd("#define drv_printk(level, module, fmt, ...) \\") == "(none)");
  CHECK(cmd("[ERROR]  acl set device 0 failed, errorCode = 507033") == "(none)");
  CHECK(cmd("[ 2081.843939] [ascend] [devmm] [devmm_alloc_svm_proc_set_to_file 662] <main:42394,42394> "
            "Devmm_set_porcess details. (status=0; proc_idx=3)") == "(none)");
  CHECK(cmd("package_name=Ascend-cann-toolkit") == "(none)");
  CHECK(cmd("(EngineCore_2 pid=413) [Error]: The execution of the internal task times out. ") == "(none)");
  CHECK(cmd("        // runtime目录下, version.info文件, Version=1.83.T8.0.B128") == "(none)");
}

TEST_CASE("a prompt starts a segment whose command decides its kind", "[segment]") {
  auto spans = split_segments(k31);
  REQUIRE(spans.size() == 2);
  CHECK(spans[0].first_line == 1);
  CHECK(spans[0].last_line == 8);
  CHECK_FALSE(spans[0].prompt);
  CHECK(spans[1].first_line == 9);
  CHECK(spans[1].last_line == 17);
  CHECK(spans[1].prompt);
  CHECK(spans[1].command == "dmesg");
  CHECK(spans[1].body_line() == 10);
  std::string_view body = std::string_view(k31).substr(spans[1].first_offset, spans[1].end_offset - spans[1].first_offset);
  body.remove_prefix(body.find('\n') + 1);
  CHECK(segment_kind(spans[1], body).kind == SourceKind::dmesg);
}

TEST_CASE("a change of line shape for a run of lines starts a segment; one stray line does not",
          "[segment]") {
  // Section 2.1's traceback, then section 3.2's dmesg lines: no prompt between them.
  std::string tb = reference_blocks("2.1").at(0);
  std::string dmesg = reference_blocks("3.2").at(0);
  std::string text = join({tb, dmesg});
  auto spans = split_segments(text);
  REQUIRE(spans.size() == 2);
  uint64_t tb_lines = static_cast<uint64_t>(std::count(tb.begin(), tb.end(), '\n'));
  CHECK(spans[0].last_line == tb_lines);
  CHECK(spans[1].first_line == tb_lines + 1);
  CHECK(spans[1].shapes == SourceKind::dmesg);

  // One dmesg line inside job output stays in the job's segment.
  std::string one = join({"Traceback (most recent call last):",
                          "[  456.343559] [ascend] [drv_pcie] [devdrv_sync_non_trans_msg_send 1239] "
                          "<kworker/u385:0:15232:15232> Device is abnormal. (dev_id=5; msg_type=3; common_type=5)",
                          "RuntimeError: ACL stream synchronize failed.",
                          "EI9999: Inner Error!"});
  CHECK(split_segments(one).size() == 1);
}

TEST_CASE("a mixed paste is one entry of kind mixed_text, each segment parsed with the file's line numbers",
          "[segment][mixed]") {
  TempDir dir;
  write_file(dir / "paste.txt", k31);
  LoadResult r = load({dir / "paste.txt"});
  CHECK(r.recognised_any);
  const InventoryEntry& e = only_entry(r);
  CHECK(e.kind == SourceKind::mixed_text);
  CHECK(e.reason.find("1 shell prompt line") != std::string::npos);
  REQUIRE(e.stats.segments.size() == 2);
  const TextSegment& acl = e.stats.segments[0];
  const TextSegment& dm = e.stats.segments[1];
  CHECK(acl.first_line == 1);
  CHECK(acl.last_line == 8);
  CHECK(dm.kind == SourceKind::dmesg);
  CHECK(dm.command == "dmesg");
  CHECK(dm.first_line == 9);
  CHECK(dm.last_line == 17);
  CHECK(dm.parsed == 9);  // the prompt and 8 dmesg lines
  CHECK(e.stats.lines == 17);
  CHECK(e.stats.parsed + e.stats.unrecognised + e.stats.malformed == 17);
  // Kernel events keep the line numbers of the file, not of the segment.
  const auto& events = r.evidence.bundles[0].logs.kernel_events;
  REQUIRE(!events.empty());
  CHECK(events.front().evidence.line == 10);
  CHECK(events.front().evidence.excerpt.find("Devmm_set_porcess details") != std::string::npos);
  uint64_t offset_of_line_10 = k31.find("[ 2081.843939]");
  CHECK(events.front().evidence.offset == offset_of_line_10);
}

TEST_CASE("prompts of npu-smi and cat segment a paste of tool output", "[segment][mixed]") {
  // Section 4.4 (npu-smi in a container) and 4.5 (driver version.info shown with cat).
  std::string npu = reference_blocks("4.4").at(1);
  std::string ver = reference_blocks("4.5").at(0);
  std::string text = join({npu, ver});
  TempDir dir;
  write_file(dir / "ticket.txt", text);
  LoadResult r = load({dir / "ticket.txt"});
  const InventoryEntry& e = only_entry(r);
  CHECK(e.kind == SourceKind::mixed_text);
  REQUIRE(e.stats.segments.size() == 2);
  CHECK(e.stats.segments[0].kind == SourceKind::npu_smi_info);
  CHECK(e.stats.segments[0].command == "npu-smi info");
  CHECK(e.stats.segments[1].kind == SourceKind::driver_version_info);
  CHECK(e.stats.segments[1].first_line == 4);
  const BundleFacts& b = r.evidence.bundles[0];
  REQUIRE(b.devices.info);
  CHECK(b.devices.info->failure_code == -8020);
  CHECK(b.devices.info->evidence.line == 3);
  CHECK(e.stats.unrecognised == 0);
}

TEST_CASE("a file of one kind with a prompt-free body keeps its kind", "[segment][mixed]") {
  TempDir dir;
  write_file(dir / "dmesg.txt", reference_blocks("3.2").at(0));
  LoadResult r = load({dir / "dmesg.txt"});
  CHECK(only_entry(r).kind == SourceKind::dmesg);
  CHECK(only_entry(r).stats.segments.empty());
}

TEST_CASE("inventory lists the segments with line ranges and kinds", "[segment][mixed][cli]") {
  TempDir dir;
  write_file(dir / "paste.txt", k31);
  CliRun run = run_cli({"inventory", dir / "paste.txt"});
  CHECK(run.out.find("mixed_text") != std::string::npos);
  CHECK(run.out.find("lines 9-17 dmesg") != std::string::npos);
  CHECK(run.out.find("$ dmesg: the output of `dmesg`") != std::string::npos);
  CliRun json = run_cli({"inventory", "--format", "json", dir / "paste.txt"});
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(json.out);
  simdjson::dom::element entry = simdjson::dom::array(doc["bundles"].at(0)["entries"]).at(0);
  CHECK(std::string_view(entry["kind"]) == "mixed_text");
  simdjson::dom::array segments = entry["segments"];
  REQUIRE(segments.size() == 2);
  simdjson::dom::element dm = segments.at(1);
  CHECK(uint64_t(dm["first_line"]) == 9);
  CHECK(uint64_t(dm["last_line"]) == 17);
  CHECK(std::string_view(dm["kind"]) == "dmesg");
  CHECK(std::string_view(dm["command"]) == "dmesg");
  CHECK(uint64_t(dm["parsed"]) == 9);
}

// The environment snapshot MindCluster's fault diagnosis reads (Ascend/mind-cluster,
// component/ascend-faultdiag/test/st_testcase/.../environment_check/worker-0/npu_info_before.txt,
// lines 1-57): each output follows its command, echoed without a prompt.
static const char* kEnvCheck =
    "Datetime: 2024-09-04 09:38:41.269221\n"
    "\n"
    "\n"
    "cat /usr/local/Ascend/driver/version.info\n"
    "Version=23.0.7\n"
    "ascendhal_version=7.35.19\n"
    "aicpu_version=1.0\n"
    "tdt_version=1.0\n"
    "log_version=1.0\n"
    "prof_version=2.0\n"
    "dvppkernels_version=1.1\n"
    "tsfw_version=1.0\n"
    "Innerversion=V100R001C15SPC012B220\n"
    "compatible_version=[V100R001C29],[V100R001C30],[V100R001C13],[V100R001C15]\n"
    "compatible_version_fw=[7.0.0,7.1.99]\n"
    "package_version=23.0.7\n"
    "\n"
    "\n"
    "cat /usr/local/Ascend/firmware/version.info\n"
    "Version=7.1.0.11.220\n"
    "firmware_version=1.0\n"
    "package_version=23.0.7\n"
    "compatible_version_drv=[23.0.rc3,23.0.rc3.],[23.0.0,23.0.0.]\n"
    "\n"
    "\n"
    "cat /usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info\n"
    "package_name=Ascend-cann-toolkit\n"
    "version=7.0.T10\n"
    "innerversion=V100R001C13B222\n"
    "compatible_version=[V100R001C29],[V100R001C30],[V100R001C13],[V100R003C10],[V100R003C11]\n"
    "arch=aarch64\n"
    "os=linux\n"
    "path=/usr/local/Ascend/ascend-toolkit/7.0.T10/aarch64-linux\n"
    "\n"
    "\n"
    "cat /usr/local/Ascend/nnae/latest/ascend_nnae_install.info\n"
    "package_name=Ascend-cann-nnae\n"
    "version=8.0.RC3\n"
    "innerversion=V100R001C19SPC001B137\n"
    "compatible_version=[V100R001C13,V100R001C19],[V100R001C30]\n"
    "arch=x86_64\n"
    "os=linux\n"
    "path=/usr/local/Ascend/nnae/8.0.RC3\n"
    "\n"
    "\n"
    "pip list | grep \"torch \"\n"
    "torch              1.11.0\n"
    "\n"
    "\n"
    "pip list | grep torch-npu\n"
    "torch-npu          2.1.0.post8.dev20241009\n"
    "\n"
    "\n"
    "pip list | grep \"mindspore \"\n"
    "mindspore          2.3.0\n";

TEST_CASE("commands echoed without a prompt split a snapshot into version files and pip rows",
          "[segment][mixed]") {
  CHECK(cmd("cat /usr/local/Ascend/driver/version.info") == "cat /usr/local/Ascend/driver/version.info");
  CHECK(cmd("pip list | grep torch-npu") == "pip list | grep torch-npu");
  CHECK(cmd("/usr/local/Ascend/driver/tools/hccn_tool -i 0 -ip -g") == "/usr/local/Ascend/driver/tools/hccn_tool -i 0 -ip -g");
  // near misses: prose that starts like a command, a field line, a pip row
  CHECK(cmd("cat the file below") == "(none)");
  CHECK(cmd("Datetime: 2024-09-04 09:38:41.269221") == "(none)");
  CHECK(cmd("torch-npu          2.1.0.post8.dev20241009") == "(none)");
  CHECK(cmd("dmesg shows nothing") == "(none)");

  TempDir dir;
  write_file(dir / "npu_info_before.txt", kEnvCheck);
  LoadResult r = load({dir / "npu_info_before.txt"});
  const InventoryEntry& e = only_entry(r);
  CHECK(e.kind == SourceKind::mixed_text);
  std::vector<SourceKind> kinds;
  for (const auto& s : e.stats.segments) kinds.push_back(s.kind);
  CHECK(kinds == std::vector<SourceKind>{SourceKind::unknown, SourceKind::driver_version_info,
                                         SourceKind::firmware_version_info, SourceKind::cann_install_info,
                                         SourceKind::cann_install_info, SourceKind::pip_list_text,
                                         SourceKind::pip_list_text, SourceKind::pip_list_text});
  const LibraryFacts& lf = r.evidence.bundles[0].libraries;
  REQUIRE(lf.driver_version);
  CHECK(lf.driver_version->get("Version") == "23.0.7");
  CHECK(lf.driver_version->find("Version")->evidence.line == 5);
  REQUIRE(lf.firmware_version);
  CHECK(lf.firmware_version->get("Version") == "7.1.0.11.220");
  REQUIRE(lf.cann_files.size() == 2);
  CHECK(lf.cann_files[0].component == "toolkit");
  CHECK(lf.cann_files[0].get("version") == "7.0.T10");
  CHECK(lf.cann_files[1].component == "nnae");
  CHECK(lf.cann_files[1].get("version") == "8.0.RC3");
  REQUIRE(lf.default_pip.size() == 3);
  CHECK(lf.default_pip[1].normalized == "torch-npu");
  CHECK(lf.default_pip[1].version == "2.1.0.post8.dev20241009");
  CHECK(lf.default_pip[1].evidence.line == 51);
  // Only the first line ("Datetime: ...") is read by no reader; blank lines are the readers'.
  CHECK(e.stats.segments[0].unrecognised == 3);
}

TEST_CASE("hccn_tool output pasted after its command keeps the device of -i", "[segment][mixed]") {
  // Lines of tests/data/real/mind-cluster-faultdiag-testdata-env-check (the device ids are the
  // commands' only: a bundle's file name carries them, a paste the echoed command).
  TempDir dir;
  write_file(dir / "env.txt",
             "/usr/local/Ascend/driver/tools/hccn_tool -i 1 -ip -g\n"
             "ipaddr:10.10.0.11\n"
             "netmask:255.255.255.0\n"
             "\n"
             "/usr/local/Ascend/driver/tools/hccn_tool -i 0 -link_stat -g\n"
             "[devid 0]current time        : Wed Aug  2 03:09:26 2022\n"
             "[devid 0]link up count       : 2\n"
             "[devid 0]link change records :\n"
             "[devid 0]    Tue Aug  1 14:43:40 2022    LINK DOWN\n");
  LoadResult r = load({dir / "env.txt"});
  const InventoryEntry& e = only_entry(r);
  CHECK(e.kind == SourceKind::mixed_text);
  const auto& hccn = r.evidence.bundles[0].network.hccn;
  REQUIRE(hccn.count(1));
  CHECK(hccn.at(1).ip == "10.10.0.11");
  CHECK(hccn.at(1).ip_evidence.line == 2);
  REQUIRE(hccn.count(0));
  CHECK(hccn.at(0).link_up_count == 2);
  REQUIRE(hccn.at(0).link_changes.size() == 1);
  CHECK(!hccn.at(0).link_changes[0].up);
  CHECK(e.stats.lines_unrecognised == 0);
}

TEST_CASE("a few tool-like rows in a page of other text are not that tool's output", "[segment][mixed]") {
  // Debian's /etc/debconf.conf: stanzas whose `Name:` lines look like `pip show`.
  std::string stanzas;
  for (std::string_view name : {"config", "passwords", "configdb", "templatedb"})
    stanzas += fmt::format("# The {} database.\nName: {}\nDriver: File\nMode: 644\nReject-Type: password\n"
                           "Filename: /var/cache/debconf/{}.dat\n\n", name, name, name);
  auto spans = split_segments(stanzas);
  REQUIRE(spans.size() == 1);
  CHECK(segment_kind(spans[0], stanzas).kind == SourceKind::unknown);
  // Debian's /etc/X11/rgb.txt: three numbers and a name, not lsmod's name, size, count.
  // Its first lines, verbatim: before, 7 of 12 were lsmod rows and the file was lsmod output.
  std::string colours =
      "! $Xorg: rgb.txt,v 1.3 2000/08/17 19:54:00 cpqbld Exp $\n"
      "255 250 250\t\tsnow\n"
      "248 248 255\t\tghost white\n"
      "248 248 255\t\tGhostWhite\n"
      "245 245 245\t\twhite smoke\n"
      "245 245 245\t\tWhiteSmoke\n"
      "220 220 220\t\tgainsboro\n"
      "255 250 240\t\tfloral white\n"
      "255 250 240\t\tFloralWhite\n"
      "253 245 230\t\told lace\n"
      "253 245 230\t\tOldLace\n"
      "250 240 230\t\tlinen\n";
  CHECK(sniff_content(colours, true).kind == SourceKind::unknown);
  // Control: lsmod rows, also a module name that starts with a digit.
  CHECK(sniff_content("Module                  Size  Used by\n8021q                  40960  0\n"
                      "drv_vascend           159744  0\n", true).kind == SourceKind::lsmod);
  CHECK(sniff_content("255 250 250  0\n248 248 255  0\n8021q  40960  0\n", true).kind != SourceKind::lsmod);
  // Control: the same stanzas as a quarter of real pip show output are read as it.
  std::string pip = "Name: torch-npu\nVersion: 2.1.0.post3\nSummary: NPU bridge for PyTorch\nLocation: /usr/lib\n";
  auto pip_spans = split_segments(pip);
  REQUIRE(pip_spans.size() == 1);
  CHECK(segment_kind(pip_spans[0], pip).kind == SourceKind::pip_show);
}
