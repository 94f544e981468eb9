// The shared line-prefix recogniser (parsers/common/line_prefix.h) on lines copied verbatim
// from public threads (the source is named above each), and near misses that must not match.
#include <catch2/catch.hpp>
#include <string>

#include "parsers/common/line_prefix.h"
#include "parsers/kernel/kernel_line.h"
#include "parsers/plog/plog_line.h"

using namespace triage;

TEST_CASE("line prefix: launchers", "[prefix]") {
  SECTION("pdsh host of a DeepSpeed hostfile (DeepSpeed multi-node docs)") {
    auto p = split_line_prefix(
        "worker-0: [2022-09-08 12:02:16,517] [INFO] [launch.py:136:main] WORLD INFO DICT: "
        "{'worker-0': [0], 'worker-1': [0]}");
    CHECK(p.worker == 0);
    CHECK(p.host == "worker-0");
    CHECK(p.label == "worker-0");
    CHECK(p.body.substr(0, 25) == "[2022-09-08 12:02:16,517]");
    auto q = split_line_prefix(
        "actor-multi-node-worker-0: [2023-06-21 03:45:55,424] [INFO] [timer.py:199:stop] "
        "epoch=1/micro_step=926/global_step=1880");
    CHECK(q.worker == 0);
    CHECK(q.host == "actor-multi-node-worker-0");
  }
  SECTION("vLLM worker tag with a rank (vllm-ascend #669)") {
    auto p = split_line_prefix(
        "(VllmWorker rank=7 pid=2159) INFO 04-27 01:29:44 [parallel_state.py:959] rank 7 in "
        "world size 8 is assigned as DP rank 0, PP rank 0, TP rank 7");
    CHECK(p.rank == 7);
    CHECK(p.pid == 2159);
    CHECK(p.process_name == "VllmWorker rank=7");
    CHECK(p.label == "(VllmWorker rank=7 pid=2159)");
    CHECK(p.logger_prefix);
    CHECK(p.body.substr(0, 14) == "rank 7 in worl");
  }
  SECTION("two nested process tags (verl #6608)") {
    auto p = split_line_prefix(
        "(vLLMHttpServer pid=3847687) (Worker_TP1 pid=3849557) ERROR 06-04 22:25:57 "
        "[multiproc_executor.py:932] Traceback (most recent call last):");
    CHECK(p.pid == 3849557);
    CHECK(p.label == "(vLLMHttpServer pid=3847687) (Worker_TP1 pid=3849557)");
    CHECK(p.body == "Traceback (most recent call last):");
  }
  SECTION("older vLLM logger prefix without the opening bracket (vllm-ascend #167)") {
    auto p = split_line_prefix(
        "(RayWorkerWrapper pid=118835) ERROR 02-26 09:45:37 worker_base.py:572]         "
        "rtSetDevice execute failed, reason=[device id error][FUNC:FuncErrorReason]"
        "[FILE:error_message_manage.cc][LINE:53]");
    CHECK(p.pid == 118835);
    CHECK(p.logger_prefix);
    CHECK(p.body.substr(0, 19) == "        rtSetDevice");
  }
  SECTION("logger prefix with a directory in its marker (vllm-ascend #8679)") {
    auto p = split_line_prefix(
        "ERROR 04-22 02:06:41 [v1/executor/multiproc_executor.py:751] Traceback (most recent "
        "call last):");
    CHECK(p.logger_prefix);
    CHECK(p.body == "Traceback (most recent call last):");
  }
  SECTION("vLLM logger with a full date (vllm-ascend #4430)") {
    auto p = split_line_prefix(
        "(Worker_TP5 pid=7129) ERROR 2025-11-25 15:18:55.343 [multiproc_executor.py:671] [ERROR] "
        "2025-11-25-15:18:55 (PID:7129, Device:5, RankID:-1) ERR00100 PTA call acl api failed.");
    CHECK(p.pid == 7129);
    CHECK(p.logger_prefix);
    CHECK(p.body.substr(0, 28) == "[ERROR] 2025-11-25-15:18:55 ");
  }
  SECTION("near misses") {
    // A log line that starts with a host-like word is not a pdsh prefix.
    CHECK(!split_line_prefix("RuntimeError: NPU out of memory.").worker);
    CHECK(split_line_prefix("RuntimeError: NPU out of memory.").host.empty());
    CHECK(split_line_prefix("worker-x: hello").host.empty());
    CHECK(split_line_prefix("10.0.1: hello").host.empty());
    // DeepSpeed's own `[Rank 0]` tag inside the message is not torchrun's `[rank0]:`.
    CHECK(!split_line_prefix("[2025-07-03 08:57:56,267] [INFO] [logging.py:107:log_dist] [Rank 0] "
                             "step=110, skipped=0, lr=[0.001], mom=[[0.9, 0.999]]")
               .rank);
    CHECK(!split_line_prefix("(see pid list) x").pid);
    CHECK(!split_line_prefix("INFO 12-04 x [f.py:1] y").logger_prefix);
  }
}

TEST_CASE("line prefix: containers", "[prefix]") {
  SECTION("CRI log line (containerd / CRI-O file under /var/log/containers)") {
    auto p = split_line_prefix(
        "2023-06-30T19:27:53.641587359Z stdout F [ERROR] [ERROR] Some problems were "
        "encountered while processing the POMs:");
    CHECK(p.container_time == "2023-06-30T19:27:53.641587359Z");
    CHECK(p.container_stream == "stdout");
    CHECK(p.body.substr(0, 16) == "[ERROR] [ERROR] ");
  }
  SECTION("docker logs -t, no stream tag") {
    auto p = split_line_prefix("2023-06-30T19:27:53.641587359Z Traceback (most recent call last):");
    CHECK(p.container_time == "2023-06-30T19:27:53.641587359Z");
    CHECK(p.container_stream.empty());
    CHECK(p.body == "Traceback (most recent call last):");
  }
  SECTION("docker compose service (vllm-ascend #4256)") {
    auto p = split_line_prefix(
        "deepseek-v3_2-exp  | (EngineCore_DP0 pid=414) E39999[PID: 833] 2025-11-18-10:35:31.222.032 "
        "(E39999):  The error from device(chipId:0, dieId:0), serial number is 3");
    CHECK(p.container == "deepseek-v3_2-exp");
    CHECK(p.pid == 414);
    CHECK(p.label == "deepseek-v3_2-exp  | (EngineCore_DP0 pid=414)");
    CHECK(p.body.substr(0, 14) == "E39999[PID: 83");
    CHECK(split_line_prefix("| 0     910B1  | OK |").container.empty());
  }
  SECTION("kubectl logs --prefix (kubernetes #124732)") {
    auto p = split_line_prefix(
        "[pod/y-844fbc9777-vhl79/nginx] /docker-entrypoint.sh: Looking for shell scripts in "
        "/docker-entrypoint.d/");
    CHECK(p.pod == "y-844fbc9777-vhl79");
    CHECK(p.container == "nginx");
    CHECK(p.label == "[pod/y-844fbc9777-vhl79/nginx]");
    // `/docker-entrypoint.sh: Looking` is the program's message, not a grep -r prefix.
    CHECK(p.grep_file.empty());
    CHECK(p.body.substr(0, 21) == "/docker-entrypoint.sh");
  }
  SECTION("near misses: times without a zone and plog times") {
    CHECK(split_line_prefix("2025-03-26 11:48:53 - INFO - vllm_ascend.worker.model_runner")
              .container_time.empty());
    CHECK(split_line_prefix("2026-03-01T12:00:00.123456 host kernel: x").container_time.empty());
    CHECK(split_line_prefix("[pod/] x").pod.empty());
  }
}

TEST_CASE("line prefix: grep", "[prefix]") {
  std::string_view file;
  uint64_t n = 0;
  bool ctx = false;
  SECTION("grep -rn over a plog directory") {
    std::string_view line =
        "plog/plog-3813_20250110175352195.log:12:[ERROR] RUNTIME(3813,python3):2025-01-10-17:53:"
        "52.846.403 [device_error_proc.cc:1409]3813 ProcessStarsCoreErrorInfo:report error";
    auto p = split_line_prefix(line);
    CHECK(p.grep_file == "plog/plog-3813_20250110175352195.log");
    CHECK(p.grep_line == 12);
    CHECK(!p.grep_context);
    CHECK(p.body.substr(0, 8) == "[ERROR] ");
    PlogLine pl;
    REQUIRE(parse_plog_line(line, pl) == PlogResult::parsed);
    CHECK(pl.origin_file == "plog/plog-3813_20250110175352195.log");
    CHECK(pl.origin_line == 12);
    CHECK(pl.module == "RUNTIME");
  }
  SECTION("grep -C context line and the path:N- form") {
    CHECK(grep_prefix_length("debug/plog/plog-1.log-7-[INFO] GE(1,x):y", file, n, ctx) == 24);
    CHECK(file == "debug/plog/plog-1.log");
    CHECK(n == 7);
    CHECK(ctx);
    CHECK(grep_prefix_length("debug/plog/plog-1.log:7-text", file, n, ctx) == 24);
    CHECK(ctx);
  }
  SECTION("grep -n of one file and grep -r without -n") {
    CHECK(grep_prefix_length("12:[ERROR] x", file, n, ctx) == 3);
    CHECK(file.empty());
    CHECK(n == 12);
    CHECK(grep_prefix_length("log/debug/plog/plog-1.log:[ERROR] x", file, n, ctx) == 26);
    CHECK(file == "log/debug/plog/plog-1.log");
    CHECK(n == 0);
  }
  SECTION("grep -n over a kernel log keeps the kernel line") {
    KernelLine k;
    REQUIRE(parse_kernel_line("kern.log-3-[ 2081.843939] hisi_sdma 0: x", k) == KernelResult::parsed);
    CHECK(k.prefix == "kern.log-3-");
    CHECK(k.uptime_s > 2081.8);
  }
  SECTION("near misses: Python warnings, clocks, exceptions, loader messages, URLs") {
    // `x.py:N: Warning` is Python's own format (torch_npu start-up warning).
    CHECK(grep_prefix_length(
              "/usr/local/python3.10/lib/python3.10/site-packages/torch_npu/utils/"
              "path_manager.py:79: UserWarning: Warning: The /usr/local/Ascend/ascend-toolkit/"
              "latest owner does not match the current user.",
              file, n, ctx) == 0);
    CHECK(grep_prefix_length("10:00:00 started", file, n, ctx) == 0);
    CHECK(grep_prefix_length("0:00:01 elapsed", file, n, ctx) == 0);
    CHECK(grep_prefix_length("RuntimeError: NPU out of memory.", file, n, ctx) == 0);
    CHECK(grep_prefix_length("torch.OutOfMemoryError: NPU out of memory.", file, n, ctx) == 0);
    CHECK(grep_prefix_length(
              "/home/ma-user/anaconda3/envs/PyTorch-2.1.0/lib/python3.9/site-packages/torch_npu/"
              "lib/libtorch_npu.so: undefined symbol: _ZN5torch10ValueErrorC1EPKcz'!",
              file, n, ctx) == 0);
    CHECK(grep_prefix_length("https://github.com/x: y", file, n, ctx) == 0);
    CHECK(grep_prefix_length("[rank0]: Traceback (most recent call last):", file, n, ctx) == 0);
    CHECK(grep_prefix_length("2024-05-01-10:00:00 x", file, n, ctx) == 0);
    CHECK(grep_prefix_length("plog-12345-20240101 x", file, n, ctx) == 0);
    CHECK(grep_prefix_length("2024-05-01-10:00:00 x", file, n, ctx) == 0);
    CHECK(grep_prefix_length("2023-06-30T19:27:53.641587359Z stdout F x", file, n, ctx) == 0);
  }
}

TEST_CASE("line prefix: cat -n line numbers and Markdown quotes", "[prefix]") {
  std::string_view file;
  uint64_t n = 0;
  bool ctx = false;
  SECTION("cat -n and nl: six columns, right-aligned, then a tab") {
    auto p = split_line_prefix("   323\t2025-01-08 09:54:50,931 - INFO - NumExpr defaulting to 8 threads.");
    CHECK(p.grep_line == 323);
    CHECK(p.grep_file.empty());
    CHECK(p.body == "2025-01-08 09:54:50,931 - INFO - NumExpr defaulting to 8 threads.");
    CHECK(grep_prefix_length("     7\t[ERROR] x", file, n, ctx) == 7);
    CHECK(n == 7);
    CHECK(grep_prefix_length("1234567\tx", file, n, ctx) == 8);  // wider than six: no padding
  }
  SECTION("near misses: a table's number column, a zero, no tab") {
    CHECK(grep_prefix_length("12\tfoo\tbar", file, n, ctx) == 0);
    CHECK(grep_prefix_length("   323 text", file, n, ctx) == 0);
    CHECK(grep_prefix_length("     0\tx", file, n, ctx) == 0);
    CHECK(grep_prefix_length("\t323\tx", file, n, ctx) == 0);
  }
  SECTION("Markdown's quote before a pasted line, nested too") {
    auto p = split_line_prefix(
        "> RuntimeError: call aclnnCast failed, detail:EZ1001: [PID: 3121044] 2025-03-26-15:21:21.052.218 self "
        "not implemented for DT_BFLOAT16");
    CHECK(p.body.substr(0, 14) == "RuntimeError: ");
    CHECK(split_line_prefix("> > [ERROR] x").body == "[ERROR] x");
    CHECK(split_line_prefix("> [rank0]: Traceback (most recent call last):").rank == 0);
  }
  SECTION("Markdown's inline code opened before the paste, after a label too") {
    auto p = split_line_prefix(
        "`EZ3002: [PID: 141730] 2025-05-14-07:42:33.234.136 Optype [TransData] of Ops kernel [AIcoreEngine] is "
        "unsupported.");
    CHECK(p.body.substr(0, 7) == "EZ3002:");
    auto q = split_line_prefix("\xE6\x8A\xA5\xE9\x94\x99\xE5\xA6\x82\xE4\xB8\x8B\xEF\xBC\x9A`[2024-06-27 11:39:22,652] [INFO] x");
    CHECK(q.body == "[2024-06-27 11:39:22,652] [INFO] x");
    CHECK(split_line_prefix("```").body == "```");  // a fence, not inline code
    CHECK(split_line_prefix("``x``").body == "``x``");
  }
  SECTION("near misses: Python's prompt, a lone >, an arrow in the text") {
    CHECK(split_line_prefix(">>> import torch_npu").body == ">>> import torch_npu");
    CHECK(split_line_prefix(">").body == ">");
    CHECK(split_line_prefix("x > y").body == "x > y");
    CHECK(split_line_prefix(">text").body == ">text");
  }
}

TEST_CASE("line prefix: issue 36 forms and their near misses", "[prefix]") {
  std::string_view file;
  uint64_t n = 0;
  bool ctx = false;
  SECTION("Ray actor tags, with and without ip (verl #2012)") {
    auto p = split_line_prefix(
        "(WorkerDict pid=1896673) [ERROR] TBE Subprocess[task_distribute] raise error[], main "
        "process disappeared!");
    CHECK(p.pid == 1896673);
    CHECK(p.body.substr(0, 12) == "[ERROR] TBE ");
    auto q = split_line_prefix("(pid=123, ip=10.0.0.1) [ERROR] TBE x");
    CHECK(q.pid == 123);
    CHECK(q.body == "[ERROR] TBE x");
    // a pid mid-sentence is text
    auto r = split_line_prefix("worker exited (see pid=3) early");
    CHECK(!r.pid);
    CHECK(r.body == "worker exited (see pid=3) early");
  }
  SECTION("stage tags (vllm-omni #2898)") {
    auto p = split_line_prefix(
        "[Stage-1] ERROR 04-18 15:43:36 [multiproc_executor.py:800] WorkerProc failed to start.");
    CHECK(p.label == "[Stage-1]");
    CHECK(p.logger_prefix);
    CHECK(p.body == "WorkerProc failed to start.");
    CHECK(split_line_prefix("[Worker_12] x").body == "x");
    // levels, times, ranks with a blank, a tag not followed by a blank: text
    for (std::string_view line :
         {"[ERROR] RUNTIME(1,x):2025-01-10-17:53:52.846.403 [a.cc:1]1 f:x", "[Rank 0] x",
          "[2024-07-03 10:00:00] x", "[Stage-1]x", "[S-1] x", "[Stage-12345] x",
          "[Hardware Error] x", "[2454.830692] x"}) {
      INFO(line);
      CHECK(split_line_prefix(line).body == line);
    }
  }
  SECTION("grep context of a MindSpore scheduler log (mindspore #1983)") {
    auto p = split_line_prefix(
        "scheduler.log-58-[WARNING] DISTRIBUTED(162146,ffffb85d0c80,python):2025-03-10-09:40:"
        "20.507.092 [mindspore/ccsrc/distributed/cluster/cluster_context.cc:153] Finalize] x");
    CHECK(p.grep_file == "scheduler.log");
    CHECK(p.grep_line == 58);
    CHECK(p.grep_context);
    CHECK(p.body.substr(0, 10) == "[WARNING] ");
    CHECK(grep_prefix_length("scheduler.log:58:[ERROR] x", file, n, ctx) == 17);
    CHECK(!ctx);
    // dashes and numbers inside words, dates after a directory: text
    CHECK(grep_prefix_length("a-58-b is a part number", file, n, ctx) == 0);
    CHECK(grep_prefix_length("logs/2024-07-03 10:00:00 started", file, n, ctx) == 0);
    CHECK(grep_prefix_length("/var/log/run-2024-07-03-10 x", file, n, ctx) == 0);
    CHECK(grep_prefix_length("2024-07-03 10:00:00 started", file, n, ctx) == 0);
  }
  SECTION("kbox grep with the `:` lost before the kernel time (CANN troubleshooting docs)") {
    std::string_view line =
        "/hisi_logs/device-2/20240420162417-271713000/bbox/kbox.txt:2020[2454.830701] {6}"
        "[Hardware Error]  error_type: 3, multi-bit ECC";
    auto p = split_line_prefix(line);
    CHECK(p.grep_file == "/hisi_logs/device-2/20240420162417-271713000/bbox/kbox.txt");
    CHECK(p.grep_line == 2020);
    CHECK(p.body.substr(0, 14) == "[2454.830701] ");
    auto q = split_line_prefix("2020[ 2454.830701] {6}[Hardware Error] x");
    CHECK(q.grep_line == 2020);
    CHECK(q.body == "[ 2454.830701] {6}[Hardware Error] x");
    KernelLine k;
    REQUIRE(parse_kernel_line(line, k) == KernelResult::parsed);
    CHECK(k.uptime_s > 2454.8);
    // numbers before brackets that are not kernel times: text
    for (std::string_view text : {"12[3] x", "2020[2454] x", "0[1.000001] x", "x:12[ab] y",
                                  "10[2.5] loss", "<3>[2454.830692] x"}) {
      INFO(text);
      CHECK(grep_prefix_length(text, file, n, ctx) == 0);
    }
  }
}

TEST_CASE("line prefix: terminal bytes", "[prefix]") {
  SECTION("BOM, CR and colour codes") {
    auto p = split_line_prefix("\xEF\xBB\xBF[rank0]: hello\r");
    CHECK(p.bom);
    CHECK(p.rank == 0);
    CHECK(p.body == "hello");
    auto q = split_line_prefix("\x1b[36m(train pid=8464)\x1b[0m Traceback (most recent call last):");
    CHECK(q.ansi);
    CHECK(q.label == "(train pid=8464)");
    std::string scratch;
    auto r = split_line_prefix("\x1b[1;31mERROR\x1b[0m: device 0 \x1b[33mlost\x1b[0m", {}, &scratch);
    CHECK(r.ansi);
    CHECK(r.body == "ERROR: device 0 lost");
    CHECK(strip_ansi("no colour", scratch) == "no colour");
  }
}

TEST_CASE("line prefix: a reader's label in another script before the paste", "[prefix]") {
  // Verbatim (tests/data/real/ascend-pytorch-23-sd-lora-npu-geglu-no-attribute-one-line).
  auto p = split_line_prefix("报错如下：AttributeError: module 'torch_npu' has no attribute 'npu_geglu'");
  CHECK(p.prose == "报错如下：");
  CHECK(p.body == "AttributeError: module 'torch_npu' has no attribute 'npu_geglu'");
  // An ASCII colon and blanks after it; a launcher prefix after the label is still read.
  auto q = split_line_prefix("错误信息:  [rank3]: RuntimeError: ACL stream synchronize failed.");
  CHECK(q.prose == "错误信息:  ");
  CHECK(q.rank == 3);
  CHECK(q.body == "RuntimeError: ACL stream synchronize failed.");
  SECTION("near misses") {
    CHECK(split_line_prefix("报错如下：").body == "报错如下：");  // nothing after the label
    CHECK(split_line_prefix("报错log：AttributeError: x").prose.empty());  // ASCII inside
    CHECK(split_line_prefix("日志.log:12:[ERROR] x").prose.empty());  // a grep file name
    CHECK(split_line_prefix("Error: device lost").prose.empty());  // ASCII words are the line's own
    CHECK(split_line_prefix("报错如下，模型加载失败").prose.empty());  // no colon
  }
}
