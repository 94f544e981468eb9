// Content sniffing on verbatim lines of tests/fixtures/reference/real-log-excerpts.md (copied
// from the shared reference) and on small hand-made documents for kinds without a sample.
#include <catch2/catch.hpp>

#include <sstream>

#include "ingest/classify.h"
#include "bundle_test_util.h"

using namespace triage;
using namespace triage::testing;

namespace {

std::string sniffed(std::string_view text) { return std::string(to_string(sniff_content(text, true).kind)); }

std::string only_lines_starting(const std::string& block, std::string_view prefix) {
  std::istringstream in(block);
  std::string line, out;
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) == 0) out += line + "\n";
  return out;
}

}  // namespace

TEST_CASE("real plog excerpts sniff as plog, device logs as device_log", "[classify][sniff]") {
  struct Case {
    const char* section;
    size_t block;
    const char* kind;
  };
  const Case cases[] = {
      {"1.1", 0, "plog"},        {"1.2", 0, "plog"},        {"1.2", 1, "plog"},  // grep -n prefixed
      {"1.3", 0, "plog"},        {"1.4", 0, "plog"},        {"1.5", 0, "plog"},
      {"1.6", 0, "plog"},        {"1.7", 0, "plog"},        {"1.12", 0, "plog"},
      {"1.13", 0, "plog"},       {"1.13", 1, "plog"},       {"1.14", 0, "plog"},
      {"1.16", 0, "plog"},       {"1.17", 0, "plog"},       {"1.17", 1, "plog"},
      {"1.17", 2, "plog"},       {"1.17", 3, "plog"},       {"1.19", 3, "plog"},
      {"1.21", 0, "plog"},       {"1.25", 0, "plog"},       {"1.26", 0, "plog"},
      {"1.28", 0, "plog"},       {"1.31", 0, "plog"},       {"1.31", 1, "plog"},
      {"1.31", 2, "plog"},
      {"1.18", 0, "device_log"}, {"1.19", 0, "device_log"}, {"1.19", 1, "device_log"},
      {"1.24", 0, "device_log"}, {"1.24", 1, "device_log"}, {"1.24", 2, "device_log"},
      {"1.29", 2, "device_log"},
  };
  for (const auto& c : cases) {
    INFO("section " << c.section << " block " << c.block);
    std::string block = reference_blocks(c.section).at(c.block);
    SniffResult r = sniff_content(block, true);
    INFO(r.reason);
    CHECK(to_string(r.kind) == c.kind);
  }
}

TEST_CASE("job output sniffs as python_log, also when plog lines are printed into it", "[classify][sniff]") {
  struct Case {
    const char* section;
    size_t block;
  };
  // 1.30: MindSpore prints plog lines and a Python traceback into one stdout. A plog file never
  // holds a traceback, so the traceback decides: the file is job output.
  const Case cases[] = {{"1.30", 0}, {"1.7", 1}, {"2.1", 0}, {"2.3", 0}, {"2.5", 0}, {"2.5", 1},
                        {"2.6", 0},  {"2.7", 0}, {"2.8", 0}, {"2.8", 1}, {"2.20", 1}, {"2.21", 0}};
  for (const auto& c : cases) {
    INFO("section " << c.section << " block " << c.block);
    SniffResult r = sniff_content(reference_blocks(c.section).at(c.block), true);
    INFO(r.reason);
    CHECK(r.kind == SourceKind::python_log);
  }
  SniffResult r = sniff_content(reference_blocks("1.30").at(0), true);
  CHECK_THAT(r.reason, Catch::Contains("traceback"));
}

TEST_CASE("real kernel, npu-smi and version file excerpts sniff by content", "[classify][sniff]") {
  CHECK(sniffed(only_lines_starting(reference_blocks("3.1").at(0), "[ ")) == "dmesg");
  CHECK(sniffed(reference_blocks("3.2").at(0)) == "dmesg");
  CHECK(sniffed(reference_blocks("3.3").at(0)) == "dmesg");
  CHECK(sniffed(reference_blocks("3.7").at(2)) == "lspci");
  CHECK(sniffed(reference_blocks("4.1").at(0)) == "npu_smi_info");
  CHECK(sniffed(reference_blocks("4.1").at(1)) == "cann_install_info");
  CHECK(sniffed(reference_blocks("4.2").at(0)) == "npu_smi_info");
  CHECK(sniffed(reference_blocks("4.2").at(2)) == "npu_smi_info");
  CHECK(sniffed(reference_blocks("4.2").at(3)) == "npu_smi_info");
  CHECK(sniffed(reference_blocks("4.3").at(0)) == "npu_smi_health");
  CHECK(sniffed(reference_blocks("4.3").at(2)) == "npu_smi_usages");
  CHECK(sniffed(reference_blocks("4.4").at(0)) == "npu_smi_info");
  CHECK(sniffed(reference_blocks("4.4").at(1)) == "npu_smi_info");
  for (size_t b : {0, 2, 3, 5}) {
    INFO("4.5 block " << b);
    CHECK(sniffed(reference_blocks("4.5").at(b)) == "driver_version_info");
  }
  CHECK(sniffed(reference_blocks("4.5").at(1)) == "firmware_version_info");
  CHECK(sniffed(reference_blocks("4.5").at(4)) == "firmware_version_info");
  CHECK(sniffed(reference_blocks("4.5").at(6)) == "cann_version_info");
  for (size_t b : {0, 1, 2}) CHECK(sniffed(reference_blocks("4.6").at(b)) == "cann_version_cfg");
  CHECK(sniffed(reference_blocks("4.6").at(3)) == "cann_install_info");
  CHECK(sniffed(reference_blocks("4.7").at(0)) == "ascend_install_info");
}

TEST_CASE("kinds without a reference sample sniff from small documents", "[classify][sniff]") {
  CHECK(sniffed("{\"__CURSOR\":\"s=1\",\"__REALTIME_TIMESTAMP\":\"1741194547000000\",\"_BOOT_ID\":\"ab\","
                "\"MESSAGE\":\"[ascend] [devmm] x\"}\n") == "journal_json");
  CHECK(sniffed("-- Journal begins at Mon 2025-03-03 10:00:00 CST, ends at Wed 2025-03-05 17:30:00 CST. --\n"
                "Mar 05 17:09:07 node-a kernel: [ascend] [devmm] x\n") == "journal_text");
  CHECK(sniffed("Mar 05 17:09:07.123456 node-a kernel: a\nMar 05 17:09:08.000001 node-a kernel: b\n") ==
        "journal_text");
  CHECK(sniffed("Mar  5 17:09:07 node-a kernel: [ascend] [devmm] x\nMar  5 17:09:08 node-a systemd[1]: y\n") ==
        "syslog");
  CHECK(sniffed("2025-03-05T17:09:07.123456+08:00 node-a kernel: x\n") == "syslog");
  CHECK(sniffed("[Wed Mar  5 17:09:07 2025] [ascend] [devmm] x\n[Wed Mar  5 17:09:08 2025] y\n") ==
        "dmesg_human");
  CHECK(sniffed("aaaad1c00000-aaaad1c02000 r-xp 00000000 fd:00 1311 /usr/bin/python3.10\n"
                "ffff8c200000-ffff8c400000 rw-s 00000000 00:05 1024 /dev/davinci0\n") == "proc_maps");
  CHECK(sniffed("filename:       /lib/modules/5.10.0/updates/drv_pcie_host.ko\nversion:        1.0\n"
                "srcversion:     0A1B2C3D4E5F\ndepends:        drv_seclib_host\nvermagic:       5.10.0 SMP mod_unload aarch64\n") ==
        "modinfo");
  CHECK(sniffed("Module                  Size  Used by\ndrv_pcie_host         290816  18 drv_devmm_host\n"
                "ascend_xsmem           45056  0\n") == "lsmod");
  CHECK(sniffed("drv_pcie_host 290816 18 drv_devmm_host, Live 0xffff800009210000 (OE)\n") == "proc_modules");
  CHECK(sniffed("[{\"name\": \"torch\", \"version\": \"2.9.0\"}, {\"name\": \"torch-npu\", \"version\": \"2.9.0.post6\"}]") ==
        "pip_list_json");
  CHECK(sniffed("Name: torch-npu\nVersion: 2.9.0.post6\nSummary: Ascend adapter\nLocation: /usr/lib/python3\n") ==
        "pip_show");
  CHECK(sniffed(std::string("PATH=/usr/bin\0LD_LIBRARY_PATH=/usr/local/Ascend\0HOME=/root\0", 57)) == "proc_environ");
  CHECK(sniffed("PATH=/usr/bin\nLD_LIBRARY_PATH=/usr/local/Ascend/driver/lib64\nASCEND_HOME_PATH=/x\n") ==
        "proc_environ");
  CHECK(sniffed(std::string("python3\0train.py\0--batch-size\0001\0", 33)) == "proc_cmdline");
  CHECK(sniffed(std::string("TZif2\0\0\0", 8)) == "localtime_tzif");
  CHECK(sniffed("{\"format\": \"ascend-bundle\", \"format_version\": 1, \"items\": []}") == "manifest_json");
  CHECK(sniffed("NAME=\"openEuler\"\nVERSION=\"22.03 LTS\"\nID=\"openEuler\"\nVERSION_ID=\"22.03\"\nPRETTY_NAME=\"openEuler 22.03 LTS\"\n") ==
        "os_release");
  CHECK(sniffed("epoch=1741195800\nutc=2025-03-05T17:30:00Z\nutc_offset=+0800\n") == "time_txt");
  CHECK(sniffed("boot_id=0b5c1d2e-0000-4000-8000-000000000001\nbtime=1741100000\nuptime_s=95800\n") == "boot_txt");
  CHECK(sniffed("22 1 253:0 / / rw,relatime shared:1 - xfs /dev/mapper/root rw\n") == "mountinfo");
  CHECK(sniffed("Linux node-a 5.10.0-136.12.0.86.h1032.eulerosv2r12.aarch64 #1 SMP Thu Dec 14 11:31:05 UTC 2023 aarch64 GNU/Linux\n") ==
        "uname");
  CHECK(sniffed("davinci_ascend/1.0, 5.10.0-136.12.0.86.aarch64, aarch64: installed\n") == "dkms_status");
  CHECK(sniffed("[driver] [2025-03-01 10:00:00] [INFO] Start time: 2025-03-01 10:00:00\n") == "ascend_seclog");
}

TEST_CASE("what is not recognised says why", "[classify][sniff]") {
  SniffResult r = sniff_content("", true);
  CHECK(r.kind == SourceKind::unknown);
  CHECK(r.reason == "empty");
  r = sniff_content(std::string("\x01\x02\x03\0\xff\xfe", 6), true);
  CHECK(r.kind == SourceKind::unknown);
  CHECK_THAT(r.reason, Catch::Contains("binary"));
  r = sniff_content("shopping list\nmilk\neggs\n", true);
  CHECK(r.kind == SourceKind::unknown);
  CHECK_THAT(r.reason, Catch::Contains("3 lines: no known format"));
  r = sniff_content("[ 1.000000] a\nplain\nplain\nplain\n", true);
  CHECK(r.kind == SourceKind::unknown);
  CHECK_THAT(r.reason, Catch::Contains("closest: raw dmesg 1"));
  r = sniff_content("alpha=1\nbeta=2\n", true);
  CHECK(r.kind == SourceKind::unknown);
  CHECK_THAT(r.reason, Catch::Contains("keys alpha, beta"));
  std::string tar_header(512, '\0');
  tar_header.replace(0, 8, "x.log\0\0\0");
  tar_header.replace(257, 6, std::string("ustar\0", 6));
  r = sniff_content(tar_header, true);
  CHECK(r.kind == SourceKind::unknown);
  CHECK_THAT(r.reason, Catch::Contains("archive inside the input"));
  r = sniff_content("{\"hello\": 1}", true);
  CHECK(r.kind == SourceKind::unknown);
  CHECK_THAT(r.reason, Catch::Contains("JSON"));
}

TEST_CASE("sniffing looks at the first 64 KiB only and ignores a cut last line", "[classify][sniff]") {
  std::string plog_line = "[INFO] RUNTIME(1,python3):2025-03-06-01:09:06.985.224 [a.cc:1]1 F:m\n";
  std::string text;
  while (text.size() < kSniffBytes) text += plog_line;
  std::string with_tail = text + "Traceback (most recent call last):\n";
  CHECK(sniff_content(with_tail, false).kind == SourceKind::plog);
  // A head that ends inside a line: the partial line is not judged.
  std::string cut = std::string(200, '\n') + plog_line.substr(0, 20);
  CHECK(sniff_content(cut, false).kind == SourceKind::unknown);
}

TEST_CASE("a black-box history.log pasted alone sniffs as a device-log export", "[classify][sniff]") {
  // The line of the hiascend black-box log page (tests/data/real/huawei-docs-hisi-logs-history-heartbeat-lost).
  CHECK(sniffed("[2020-02-27-19:18:46.142527] system exception code [0x68020002]: ModuleName [DRIVER], "
                "ExceptionReason [DEVICE_HBL_EXCEPTION], TimeStamp [20200227191842-300803183].\n") ==
        "device_log_export");
  // Near misses: no hex code, or another bracketed-time log.
  CHECK(sniffed("[2020-02-27-19:18:46.142527] system exception code [none]: ModuleName [DRIVER]\n") != "device_log_export");
  CHECK(sniffed("[2020-02-27-19:18:46.142527] system started\n") != "device_log_export");
}

TEST_CASE("pasted forms of the corpus: device-N log with its register dump, mmengine env, progress bars",
          "[classify][sniff]") {
  // mind-cluster faultdiag testdata, device-0 log: six TSCH records among fifteen dump lines
  std::string device_log =
      "[ERROR] TSCH(-1,null):2023-06-10-13:16:11.401.438 11 (dieid:0,cpuid:0) hwts_plat.c:1931 "
      "int_process_hwts_timeout_exception: RTS_HWTS: hwts timeout exception bitmap=0x8000\n";
  for (int i = 0; i < 5; ++i) device_log += "<exception_print>HWS_REG_SQ_BASE_ADDR=0x600065cb2900\n";
  device_log += "[ERROR] TSCH(-1,null):2023-06-10-13:16:11.401.684 71 (dieid:0,cpuid:0) hwts_plat.c:2026 "
                "int_process_hwts_timeout_exception: RTS_HWTS: hwts timeout exception, slot_id=15, stream_id=16\n";
  CHECK(sniffed(device_log) == "device_log");
  // lmdeploy check_env (mmengine's collect_env)
  CHECK(sniffed("sys.platform: linux\nPython: 3.10.5 (main, Oct 12 2024, 11:01:46) [GCC 9.4.0]\n"
                "CUDA available: False\nMUSA available: False\nPyTorch: 2.1.0\n") == "framework_env");
  // near miss: one such line among prose is not an environment report
  CHECK(sniffed("CUDA available: False\nthe run went on\n") == "unknown");
  // vllm-ascend-2585: a healthy run's console, progress bars and prompts
  CHECK(sniffed("start infer\n"
                "Adding requests: 100%|\xe2\x96\x88\xe2\x96\x88| 2/2 [00:00<00:00, 139.13it/s]\n"
                "Processed prompts: 100%|\xe2\x96\x88\xe2\x96\x88| 2/2 [00:00<00:00,  3.69it/s, est. speed "
                "input: 18.47 toks/s, output: 59.10 toks/s]\n"
                "Prompt: 'Hello, my name is', Generated text: ' John'\n") == "python_log");
  CHECK(sniffed("100% done\n50% | half\n") == "unknown");  // percentages without bars and rates
}

TEST_CASE("a pasted Python session without an error yet is job output", "[classify][sniff]") {
  // ascend-pytorch-67's statements, before the traceback (the order decides the finding)
  CHECK(sniffed(">>> import torch\n>>> import torch_npu\n>>> import os\n"
                ">>> os.environ['ASCEND_RT_VISIBLE_DEVICES'] = '1'\n"
                ">>> torch_npu._C._npu_setDevice(0)\n") == "python_log");
  // Near misses: one prompt among prose, and a bare prompt or a quoted-reply marker.
  CHECK(sniffed("see below\n>>> import torch\nthat is all\n") == "unknown");
  CHECK(sniffed(">>>\n>>>\n") == "unknown");
  CHECK(sniffed(">>>> quoted\n>>>> reply\n") == "unknown");
}

TEST_CASE("a line behind a launcher or container prefix sniffs by its own text; vLLM's logger is job output",
          "[classify][sniff]") {
  // Verbatim exception line (tests/data/real/vllm-ascend-167-c10d-store-clients-joined).
  const std::string exception =
      "torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 1/8 clients joined.\n";
  CHECK(sniffed(exception) == "python_log");
  // docker compose, kubectl --prefix and pdsh in front: no shape names these wrappers.
  CHECK(sniffed("vllm-1  | " + exception) == "python_log");
  CHECK(sniffed("[pod/train-0/main] " + exception) == "python_log");
  CHECK(sniffed("worker-3: " + exception) == "python_log");
  // vLLM's logger (verbatim public lines, knowledge/line-shape-samples.tsv), older and newer forms.
  CHECK(sniffed("ERROR 10-25 12:21:14 worker_base.py:145] torch.distributed.DistStoreError: Timed out after 601 "
                "seconds waiting for clients. 1/2 clients joined.\n") == "python_log");
  CHECK(sniffed("INFO 03-26 02:34:58 [__init__.py:32] name=ascend, value=vllm_ascend:register\n") == "python_log");
  // Near misses: prose behind a wrapper is still prose.
  CHECK(sniffed("worker-3: the job was restarted twice\n") == "unknown");
  // An error level at the start of a line of an unknown logger is an error-level line of
  // unknown shape (issue 36, knowledge/job-text-forms.tsv): job output, not vLLM's logger.
  SniffResult r = sniff_content("ERROR 02-26 10:15:42 the worker failed\n", true);
  CHECK(r.kind == SourceKind::python_log);
  CHECK_THAT(r.reason, Catch::Contains("text log of unknown shape"));
}
