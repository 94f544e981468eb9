// The Python-log parser on whole logs: streams, traceback assembly, chains, anchoring,
// error-report blocks, warnings, times, statistics and hostile input.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>

#include "ingest/finalize.h"
#include "python_test_util.h"

using namespace triage;
using triage::pytest::parse_python_text;
using triage::pytest::Parsed;

namespace {

bool counts_add_up(const Parsed& p) {
  return p.stats.lines == p.stats.parsed + p.stats.unrecognised + p.stats.malformed;
}

// Section 2.3 of the reference excerpts, verbatim.
const char* kCapturedStream =
    "  File \"/root/lwm_omni/venvs/omni/lib/python3.12/site-packages/transformers/"
    "masking_utils.py\", line 770, in find_packed_sequence_indices\n"
    "    if not is_tracing(packed_sequence_mask) and (packed_sequence_mask[:, -1] == 0).all():\n"
    "                                                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    "RuntimeError: operator():../torch_npu/csrc/aten/common/LocalScalarDenseNpu.cpp:23 NPU "
    "function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code "
    "is 107027\n"
    "[ERROR] 2026-06-22-10:11:57 (PID:172700, Device:0, RankID:-1) ERR00100 PTA call acl api "
    "failed.\n"
    "EE9999: Inner Error!\n"
    "EE9999[PID: 172700] 2026-06-22-10:11:57.444.271 (EE9999):  Not allow to synchronize "
    "captured-stream, stream_id=262.[FUNC:StreamSynchronize][FILE:api_error.cc][LINE:1016]\n"
    "        TraceBack (most recent call last):\n"
    "       rtStreamSynchronizeWithTimeout execution failed, reason=stream is "
    "captured[FUNC:FuncErrorReason][FILE:error_message_manage.cc]\n";

std::string frame(const std::string& file, int line, const std::string& func) {
  return fmt::format("  File \"{}\", line {}, in {}\n", file, line, func);
}

}  // namespace

TEST_CASE("python parser: one traceback with its ERR line, E-code block and evidence",
          "[python][parser]") {
  auto p = parse_python_text(kCapturedStream);
  const auto& py = p.facts.python;
  REQUIRE(py.tracebacks.size() == 1);
  const auto& t = py.tracebacks[0];
  CHECK_FALSE(t.header_seen);  // the excerpt starts at a frame
  CHECK(t.complete);
  CHECK_FALSE(t.truncated);
  REQUIRE(t.frames.size() == 1);
  CHECK(t.frames[0].function == "find_packed_sequence_indices");
  CHECK(t.frames[0].line == 770);
  CHECK(t.frames[0].source ==
        "if not is_tracing(packed_sequence_mask) and (packed_sequence_mask[:, -1] == 0).all():");
  CHECK(t.exception_type == "RuntimeError");
  CHECK(t.error_code == 107027);
  CHECK(t.ecode == "EE9999");
  CHECK(t.evidence_innermost.line == 1);
  CHECK(t.evidence_exception.line == 4);
  CHECK(t.evidence_exception.entry == "job.log");
  REQUIRE(t.torch_error);
  CHECK(py.torch_errors[*t.torch_error].traceback == size_t{0});
  CHECK(py.torch_errors[*t.torch_error].call ==
        "c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream)");

  // anchored by the ERR line that torch_npu appends to the message
  CHECK(t.anchor.kind == PyAnchorKind::err_line);
  CHECK(t.anchor.after_exception);
  CHECK(t.anchor.pid == 172700);
  CHECK(t.anchor.device == 0);
  CHECK(t.anchor.rank == -1);
  CHECK(t.anchor.evidence.line == 5);
  CHECK(t.anchor.local.hour == 10);
  CHECK_FALSE(t.anchor.time.known());  // no zone known for this lone file
  REQUIRE(t.err_line);
  REQUIRE(t.error_report);

  const auto& b = py.error_reports[*t.error_report];
  CHECK(b.code == "EE9999");
  CHECK(b.style == ReportHeaderStyle::pid_bracket);
  CHECK(b.inner_error_line);
  CHECK(b.pid == 172700);
  CHECK(b.local.micros == 444271);
  CHECK(b.message == "Not allow to synchronize captured-stream, stream_id=262.");
  CHECK(b.message_location.func == "StreamSynchronize");
  CHECK(b.message_location.line == 1016);
  CHECK(b.evidence.line == 6);
  CHECK(b.evidence_header.line == 7);
  REQUIRE(b.frames.size() == 1);
  CHECK(b.frames[0].func == "FuncErrorReason");
  CHECK(b.frames[0].file == "error_message_manage.cc");

  // the runtime call that failed, from the block's frame
  REQUIRE(py.torch_errors.size() == 2);
  CHECK(py.torch_errors[1].kind == TorchErrorKind::runtime_call_failed);
  CHECK(py.torch_errors[1].reason == "stream is captured");
  CHECK(p.stats.parsed == 9);
  CHECK(counts_add_up(p));
}

TEST_CASE("python parser: interleaved tracebacks of two ranks stay apart", "[python][parser]") {
  std::string log =
      "[rank0]: Traceback (most recent call last):\n"
      "[rank1]: Traceback (most recent call last):\n"
      "[rank0]:   File \"/w/train.py\", line 10, in <module>\n"
      "[rank1]:   File \"/w/train.py\", line 10, in <module>\n"
      "[rank0]:     main()\n"
      "[rank1]:     main()\n"
      "[rank1]:   File \"/w/train.py\", line 7, in main\n"
      "[rank0]:   File \"/w/loss.py\", line 42, in compute\n"
      "[rank1]:     dist.barrier()\n"
      "[rank0]:     torch.tensor(shape, device=\"npu\").item()\n"
      "[rank1]: RuntimeError: HCCL barrier failed\n"
      "[rank0]: RuntimeError: ACL stream synchronize failed, error code:107020\n"
      "[rank0]: [ERROR] 2026-03-01-12:00:05 (PID:111, Device:0, RankID:0) ERR00100 PTA call acl "
      "api failed\n"
      "[rank1]: [ERROR] 2026-03-01-12:00:06 (PID:222, Device:1, RankID:1) ERR02200 DIST call "
      "hccl api failed\n";
  auto p = parse_python_text(log);
  const auto& py = p.facts.python;
  REQUIRE(py.tracebacks.size() == 2);
  REQUIRE(py.streams.size() == 2);
  const auto& r0 = py.tracebacks[0];
  const auto& r1 = py.tracebacks[1];
  CHECK(py.streams[r0.stream].label == "[rank0]:");
  CHECK(py.streams[r0.stream].rank == 0);
  CHECK(py.streams[r1.stream].rank == 1);
  REQUIRE(r0.frames.size() == 2);
  REQUIRE(r1.frames.size() == 2);
  CHECK(r0.innermost()->file == "/w/loss.py");
  CHECK(r0.innermost()->source == "torch.tensor(shape, device=\"npu\").item()");
  CHECK(r1.innermost()->function == "main");
  CHECK(r1.innermost()->source == "dist.barrier()");
  CHECK(r0.error_code == 107020);
  CHECK_FALSE(r1.error_code);
  CHECK(r0.anchor.pid == 111);
  CHECK(r0.anchor.rank == 0);
  CHECK(r1.anchor.pid == 222);
  CHECK(r1.anchor.device == 1);
  CHECK(r0.chain != r1.chain);
  CHECK(p.stats.parsed == 14);
  CHECK(counts_add_up(p));
}

TEST_CASE("python parser: a traceback with no ERR or E-code line is not time-anchored",
          "[python][parser]") {
  std::string log = "step 1 loss 2.3\nTraceback (most recent call last):\n" +
                    frame("/w/train.py", 3, "<module>") + "    y = x.item()\n" +
                    "ValueError: bad value\n" + "step 2\n";
  auto p = parse_python_text(log);
  REQUIRE(p.facts.python.tracebacks.size() == 1);
  const auto& t = p.facts.python.tracebacks[0];
  CHECK(t.header_seen);
  CHECK(t.anchor.kind == PyAnchorKind::none);
  CHECK_FALSE(t.anchor.time.known());
  CHECK_FALSE(t.err_line);
  CHECK(t.exception_type == "ValueError");
  CHECK(t.message == "bad value");
  CHECK(p.stats.parsed == 4);
  CHECK(p.stats.unrecognised == 2);
}

TEST_CASE("python parser: an ERR line too far after the exception does not anchor it",
          "[python][parser]") {
  std::string log = "Traceback (most recent call last):\n" + frame("/w/a.py", 1, "f") +
                    "RuntimeError: boom\n";
  for (int i = 0; i < 70; ++i) log += fmt::format("unrelated output {}\n", i);
  log += "[ERROR] 2026-03-01-12:00:05 (PID:1, Device:0, RankID:0) ERR00100 PTA call acl api\n";
  auto p = parse_python_text(log);
  REQUIRE(p.facts.python.tracebacks.size() == 1);
  CHECK(p.facts.python.tracebacks[0].anchor.kind == PyAnchorKind::none);
  CHECK(p.facts.python.err_lines.size() == 1);
}

TEST_CASE("python parser: chained exceptions are kept apart and the last one marked",
          "[python][parser]") {
  std::string log = "Traceback (most recent call last):\n" +
                    frame("/w/train.py", 20, "step") + "    loss.item()\n" +
                    "RuntimeError: ACL stream synchronize failed, error code:507035\n" +
                    "[ERROR] 2025-09-04-09:50:12 (PID:838, Device:6, RankID:0) ERR00100 PTA call "
                    "acl api failed\n" +
                    "\n" +
                    "During handling of the above exception, another exception occurred:\n" +
                    "\n" + "Traceback (most recent call last):\n" +
                    frame("/w/train.py", 30, "main") + "    save_checkpoint()\n" +
                    frame("/w/ckpt.py", 5, "save_checkpoint") + "    torch.save(m, p)\n" +
                    "OSError: [Errno 28] No space left on device\n" + "\n" +
                    "The above exception was the direct cause of the following exception:\n" +
                    "\n" + "Traceback (most recent call last):\n" +
                    frame("/w/run.py", 2, "<module>") + "    main()\n" +
                    "SystemExit: training failed\n";
  auto p = parse_python_text(log);
  const auto& tbs = p.facts.python.tracebacks;
  REQUIRE(tbs.size() == 3);
  CHECK(tbs[0].chain == tbs[1].chain);
  CHECK(tbs[1].chain == tbs[2].chain);
  CHECK(tbs[0].chain_position == 0);
  CHECK(tbs[2].chain_position == 2);
  CHECK(tbs[0].link == PyChainLink::none);
  CHECK(tbs[1].link == PyChainLink::during_handling);
  CHECK(tbs[2].link == PyChainLink::direct_cause);
  CHECK_FALSE(tbs[0].last_in_chain);
  CHECK_FALSE(tbs[1].last_in_chain);
  CHECK(tbs[2].last_in_chain);
  CHECK(tbs[0].error_code == 507035);
  CHECK(tbs[1].innermost()->function == "save_checkpoint");
  CHECK(tbs[2].exception_type == "SystemExit");
  // the first exception carries the ERR line; the others share it through the chain
  CHECK(tbs[0].anchor.kind == PyAnchorKind::err_line);
  CHECK_FALSE(tbs[0].anchor.from_chain);
  CHECK(tbs[2].anchor.kind == PyAnchorKind::err_line);
  CHECK(tbs[2].anchor.from_chain);
  CHECK(tbs[2].anchor.pid == 838);
  CHECK(p.stats.unrecognised == 0);  // the blank lines around the separators are Python's
  CHECK(counts_add_up(p));
}

TEST_CASE("python parser: a traceback cut off at the end of the file", "[python][parser]") {
  SECTION("after a complete frame") {
    std::string log = "Traceback (most recent call last):\n" + frame("/w/a.py", 1, "f") +
                      "    g()\n" + frame("/w/b.py", 9, "g") + "    h()";
    auto p = parse_python_text(log);
    REQUIRE(p.facts.python.tracebacks.size() == 1);
    const auto& t = p.facts.python.tracebacks[0];
    CHECK(t.truncated);
    CHECK_FALSE(t.complete);
    CHECK(t.innermost()->function == "g");
    CHECK(t.anchor.kind == PyAnchorKind::none);
    CHECK(p.stats.lines == 5);
    CHECK(p.stats.parsed == 4);
    CHECK(p.stats.malformed == 1);  // where it was cut
    REQUIRE(p.stats.samples_of_malformed.size() == 1);
    CHECK(p.stats.samples_of_malformed[0].line == 5);
  }
  SECTION("mid-frame") {
    std::string log = "Traceback (most recent call last):\n" + frame("/w/a.py", 1, "f") +
                      "    g()\n  File \"/usr/lib/python3.10/site-pack";
    auto p = parse_python_text(log);
    REQUIRE(p.facts.python.tracebacks.size() == 1);
    CHECK(p.facts.python.tracebacks[0].truncated);
    CHECK(p.facts.python.tracebacks[0].frames.size() == 1);
    CHECK(p.stats.malformed == 1);  // the damaged frame line, counted once
    CHECK(p.stats.parsed == 3);
    CHECK(counts_add_up(p));
  }
  SECTION("interrupted by other output, then resumed without a header") {
    std::string log = "Traceback (most recent call last):\n" + frame("/w/a.py", 1, "f") +
                      "epoch 3 done\n" + frame("/w/b.py", 2, "g") + "KeyError: 'x'\n";
    auto p = parse_python_text(log);
    const auto& tbs = p.facts.python.tracebacks;
    REQUIRE(tbs.size() == 2);
    CHECK(tbs[0].truncated);
    CHECK(tbs[1].complete);
    CHECK_FALSE(tbs[1].header_seen);
    CHECK(tbs[1].innermost()->function == "g");
    CHECK(p.stats.malformed == 1);
    CHECK(p.stats.unrecognised == 1);
    CHECK(counts_add_up(p));
  }
}

TEST_CASE("python parser: a paste whose indentation collapsed to one blank", "[python][parser]") {
  // The shape of a forum paste (ascend-pytorch docs, initialization): every line of the
  // traceback one blank in, the exception and torch_npu's report line too.
  const std::string log =
      "File \"/env/lib/python3.9/site-packages/torch/serialization.py\", line 359, in _privateuse1_deserialize\n"
      " return getattr(obj, backend_name)(device_index)\n"
      " File \"/env/lib/python3.9/site-packages/torch_npu/npu/__init__.py\", line 214, in _lazy_init\n"
      " torch_npu._C._npu_init()\n"
      " RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:217 NPU function error: "
      "at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001\n"
      " [ERROR] 2025-01-15-20:59:48 (PID:6038, Device:0, RankID:-1) ERR00100 PTA call acl api failed\n"
      " [Error]: The internal ACL of the system is incorrect.\n";
  auto p = parse_python_text(log);
  REQUIRE(p.facts.python.tracebacks.size() == 1);
  const auto& t = p.facts.python.tracebacks[0];
  CHECK(t.complete);
  CHECK(t.exception_type == "RuntimeError");
  CHECK(t.frames.size() == 1);  // the paste's first line, at column 0, is no frame
  CHECK(t.innermost()->function == "_lazy_init");
  CHECK(t.innermost()->source == "torch_npu._C._npu_init()");
  REQUIRE(p.facts.python.err_lines.size() == 1);
  CHECK(p.facts.python.err_lines[0].pid == 6038);
  CHECK(p.facts.python.err_lines[0].code == "ERR00100");
  CHECK(p.facts.python.err_lines[0].error_text == "The internal ACL of the system is incorrect.");
  CHECK(counts_add_up(p));
  // Near misses: a second source-like line that is no exception stays part of the frame, and
  // a caret line too; the exception at the frame's own indent still completes it.
  const std::string kept = "Traceback (most recent call last):\n" + frame("/w/a.py", 1, "f") +
                           "    g(x)\n    ^^^^\n      more: not an error\nValueError: bad\n";
  auto q = parse_python_text(kept);
  REQUIRE(q.facts.python.tracebacks.size() == 1);
  CHECK(q.facts.python.tracebacks[0].complete);
  CHECK(q.facts.python.tracebacks[0].exception_type == "ValueError");
  CHECK(q.facts.python.tracebacks[0].innermost()->source == "g(x)");
}

TEST_CASE("python parser: vLLM worker lines and the EngineCore re-raise", "[python][parser]") {
  std::string w = "(Worker_DP0_TP1_EP1 pid=60571) ERROR 12-04 14:46:08 [multiproc_executor.py:597] ";
  std::string log =
      w + "Traceback (most recent call last):\n" + w +
      "  File \"/vllm/worker.py\", line 88, in execute_model\n" + w +
      "    torch.npu.synchronize()\n" + w +
      "RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:508 "
      "NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507046\n" +
      "(EngineCore_DP0 pid=600) INFO 12-04 14:46:08 [core.py:1] still alive\n" + w +
      "[ERROR] 2025-12-04-14:46:07 (PID:60571, Device:1, RankID:-1) ERR00100 PTA call acl api "
      "failed\n" +
      w + "EE1002: [PID: 60571] 2025-12-04-14:46:07.100.200 stream sync timeout\n";
  auto p = parse_python_text(log);
  const auto& py = p.facts.python;
  REQUIRE(py.tracebacks.size() == 1);
  const auto& t = py.tracebacks[0];
  const auto& s = py.streams[t.stream];
  CHECK(s.label == "(Worker_DP0_TP1_EP1 pid=60571)");
  CHECK(s.pid == 60571);
  CHECK(s.process_name == "Worker_DP0_TP1_EP1");
  CHECK(t.innermost()->source == "torch.npu.synchronize()");
  CHECK(t.error_code == 507046);
  CHECK(t.ecode == "EE1002");
  CHECK(t.anchor.kind == PyAnchorKind::err_line);
  CHECK(t.anchor.device == 1);
  CHECK(py.error_reports.size() == 1);
  CHECK(py.streams[py.error_reports[0].stream].label == s.label);
  CHECK(p.stats.unrecognised == 1);
}

TEST_CASE("python parser: Ray actor tags with colour codes", "[python][parser]") {
  std::string tag = "\x1b[36m(train pid=8464)\x1b[0m ";
  std::string log = tag + "Traceback (most recent call last):\n" + tag +
                    "  File \"/job/train.py\", line 5, in train_func\n" + tag +
                    "    out = model(x)\n" + tag + "torch.OutOfMemoryError: NPU out of memory.\n";
  auto p = parse_python_text(log);
  REQUIRE(p.facts.python.tracebacks.size() == 1);
  const auto& t = p.facts.python.tracebacks[0];
  CHECK(p.facts.python.streams[t.stream].pid == 8464);
  CHECK(t.exception_type == "torch.OutOfMemoryError");
  CHECK(t.innermost()->function == "train_func");
}

TEST_CASE("python parser: a warning-form E-code block before the traceback anchors it",
          "[python][parser]") {
  std::string log =
      "[rank9]:[W106 19:37:15.186470670 compiler_depend.ts:57] Warning: EZ9999: Inner Error!\n"
      "EZ9999[PID: 244584] 2026-01-06-19:37:15.407.487 (EZ9999):  The error from "
      "device(chipId:4, dieId:1), there is an exception of fftsplus aivector "
      "error.[FUNC:PrintCoreInfo][FILE:device_error_core_proc.cc][LINE:347]\n"
      "        TraceBack (most recent call last):\n"
      "       rtStreamSynchronize execute failed, reason=[aicore "
      "exception][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"
      "       synchronize stream failed, runtime result = "
      "507015[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n"
      " (function npuSynchronizeDevice)\n"
      "[rank9]: Traceback (most recent call last):\n"
      "[rank9]:   File \"/w/train.py\", line 50, in <module>\n"
      "[rank9]:     torch.npu.synchronize()\n"
      "[rank9]: RuntimeError: ACL stream synchronize failed, error code:507015\n";
  auto p = parse_python_text(log);
  const auto& py = p.facts.python;
  REQUIRE(py.streams.size() == 1);  // the untagged continuation lines belong to [rank9]:
  REQUIRE(py.warnings.size() == 1);
  const auto& w = py.warnings[0];
  CHECK(w.function == "npuSynchronizeDevice");
  CHECK(w.has_time);
  CHECK(w.source_file == "compiler_depend.ts");
  REQUIRE(w.error_report);
  const auto& b = py.error_reports[*w.error_report];
  CHECK(b.carrier == "warning");
  CHECK(b.runtime_result == 507015);
  CHECK(b.frames.size() == 2);
  REQUIRE(py.tracebacks.size() == 1);
  const auto& t = py.tracebacks[0];
  CHECK(t.anchor.kind == PyAnchorKind::error_report);
  CHECK_FALSE(t.anchor.after_exception);
  CHECK(t.anchor.pid == 244584);
  CHECK(t.ecode == "EZ9999");
  CHECK(p.stats.parsed == p.stats.lines);
}

TEST_CASE("python parser: undated c10 warning with its function tail on the next line",
          "[python][parser]") {
  std::string log =
      "[W compiler_depend.ts:487] Warning: NPU warning, error code is 507048[Error]: \n"
      "[Error]: The execution of the internal task times out.\n"
      "        Rectify the fault based on the error information in the ascend log.\n"
      " (function npuSynchronizeDevice)\n";
  auto p = parse_python_text(log);
  REQUIRE(p.facts.python.warnings.size() == 1);
  const auto& w = p.facts.python.warnings[0];
  CHECK_FALSE(w.has_time);
  CHECK(w.error_code == 507048);
  CHECK(w.function == "npuSynchronizeDevice");
  CHECK(w.source_line == 487);
  CHECK(p.stats.parsed == 4);
}

TEST_CASE("python parser: the incident's surfacing error", "[python][parser]") {
  std::string log = "Traceback (most recent call last):\n" +
                    frame("/w/train.py", 120, "train_one_epoch") + "    loss = criterion(out, t)\n" +
                    frame("/w/loss.py", 64, "forward") +
                    "    grid = torch.zeros(feat.shape, device=feat.device)\n" +
                    "RuntimeError: rtStreamSynchronize execution failed, reason=task timeout\n" +
                    "ACL error: 107020\n";
  auto p = parse_python_text(log);
  const auto& py = p.facts.python;
  REQUIRE(py.tracebacks.size() == 1);
  CHECK(py.tracebacks[0].innermost()->function == "forward");
  REQUIRE(py.torch_errors.size() == 2);
  CHECK(py.torch_errors[0].kind == TorchErrorKind::runtime_call_failed);
  CHECK(py.torch_errors[0].reason == "task timeout");
  CHECK(py.torch_errors[0].traceback == size_t{0});
  CHECK(py.torch_errors[1].kind == TorchErrorKind::acl_error);
  CHECK(py.torch_errors[1].error_code == 107020);
}

TEST_CASE("python parser: times converted in finalize with the process's zone",
          "[python][parser][time]") {
  AnalyzeOptions options;
  SECTION("host zone") {
    // finalize runs inside parse_python_text; set the zone first via a second finalize call
    auto p = parse_python_text(kCapturedStream, options);
    p.facts.system.host_zone = ZoneRule::fixed(8 * 3600);
    p.facts.system.host_zone_origin = "system/time.txt";
    finalize_facts(p.facts, options);
    const auto& t = p.facts.python.tracebacks[0];
    REQUIRE(t.anchor.time.known());
    CHECK(t.anchor.time.basis == TimeBasis::local_known_zone);
    CHECK(format_utc(t.anchor.time.utc_us) == "2026-06-22T02:11:57Z");
    CHECK(t.anchor.time.original == "2026-06-22-10:11:57");
    CHECK(t.anchor.zone_origin == "system/time.txt");
    const auto& b = p.facts.python.error_reports[0];
    CHECK(format_utc(b.time.utc_us) == "2026-06-22T02:11:57.444271Z");
  }
  SECTION("the process's own zone wins") {
    auto p = parse_python_text(kCapturedStream, options);
    p.facts.system.host_zone = ZoneRule::fixed(8 * 3600);
    auto& proc = p.facts.processes.by_pid[172700];
    proc.pid = 172700;
    proc.zone = ZoneRule::fixed(0);
    proc.zone_origin = "processes/172700/tz.txt";
    finalize_facts(p.facts, options);
    const auto& t = p.facts.python.tracebacks[0];
    CHECK(format_utc(t.anchor.time.utc_us) == "2026-06-22T10:11:57Z");
    CHECK(t.anchor.zone_origin == "processes/172700/tz.txt");
  }
  SECTION("--utc-offset when nothing else is known") {
    options.utc_offset_seconds = -5 * 3600;
    auto p = parse_python_text(kCapturedStream, options);
    const auto& t = p.facts.python.tracebacks[0];
    CHECK(t.anchor.time.basis == TimeBasis::local_assumed_zone);
    CHECK(format_utc(t.anchor.time.utc_us) == "2026-06-22T15:11:57Z");
  }
}

TEST_CASE("python parser: c10 warning year comes from the nearest dated line",
          "[python][parser][time]") {
  AnalyzeOptions options;
  options.utc_offset_seconds = 0;
  std::string log =
      "[W1231 23:59:58.100000000 compiler_depend.ts:57] Warning: NPU warning, error code is "
      "507048 (function npuSynchronizeDevice)\n"
      "[ERROR] 2026-01-01-00:00:03 (PID:5, Device:0, RankID:0) ERR00100 PTA call acl api failed\n"
      "[W101 00:00:04.000000000 compiler_depend.ts:57] Warning: later\n";
  auto p = parse_python_text(log, options);
  const auto& ws = p.facts.python.warnings;
  REQUIRE(ws.size() == 2);
  CHECK(ws[0].function == "npuSynchronizeDevice");
  CHECK(ws[0].time.basis == TimeBasis::year_estimated);
  CHECK(format_utc(ws[0].time.utc_us) == "2025-12-31T23:59:58.100000Z");
  CHECK(format_utc(ws[1].time.utc_us) == "2026-01-01T00:00:04Z");
  CHECK(ws[0].time.original == "1231 23:59:58.100000000");

  auto lone = parse_python_text("[W101 00:00:04.0 x.cpp:1] Warning: y\n", options);
  CHECK_FALSE(lone.facts.python.warnings[0].time.known());  // no year anywhere
}

TEST_CASE("python parser: a tool's error text is 'not collected'", "[python][parser]") {
  auto p = parse_python_text("cat: /job/out.txt: No such file or directory\n");
  CHECK(p.stats.not_collected == "cat: /job/out.txt: No such file or directory");
  auto q = parse_python_text(kCapturedStream);
  CHECK(q.stats.not_collected.empty());
}

TEST_CASE("python parser: hostile input never crashes and counts add up",
          "[python][parser][hostile]") {
  SECTION("NUL bytes and invalid UTF-8") {
    std::string log = std::string("Traceback (most recent call last):\n") +
                      "  File \"/w/\xff\xfe.py\", line 1, in f\xc3\n" + std::string("x\0y\n", 4) +
                      "\xc3\x28 RuntimeError: \xe2\x82\n" + "EZ9999: \x80\x81 Inner\n" +
                      std::string(1, '\0') + "\n\xff\n";
    auto p = parse_python_text(log);
    CHECK(counts_add_up(p));
    CHECK(p.stats.lines == 7);
    CHECK(p.stats.malformed >= 2);  // the two lines with NUL bytes
    REQUIRE(p.facts.python.tracebacks.size() == 1);
    CHECK(p.facts.python.tracebacks[0].frames[0].file == "/w/\xff\xfe.py");
  }
  SECTION("a 1 MiB exception line still ends its traceback, counted malformed") {
    std::string log = "Traceback (most recent call last):\n" + frame("/w/a.py", 1, "f") +
                      "RuntimeError: " + std::string(2 << 20, 'x') + "\nafter\n";
    auto p = parse_python_text(log);
    CHECK(counts_add_up(p));
    CHECK(p.stats.lines == 4);
    CHECK(p.stats.malformed == 1);
    REQUIRE(p.facts.python.tracebacks.size() == 1);
    const auto& t = p.facts.python.tracebacks[0];
    CHECK(t.complete);
    CHECK(t.message.size() == PythonTraceback::kMaxMessage);
  }
  SECTION("a 1 MiB line of prefix characters") {
    std::string log = std::string(1 << 20, '(') + "\n" + std::string(1 << 20, '[') + "\n" +
                      "[rank1]:" + std::string((1 << 20) - 8, ' ') + "\n";
    auto p = parse_python_text(log);
    CHECK(counts_add_up(p));
    CHECK(p.stats.lines == 3);
  }
  SECTION("endless recursion keeps the outermost and innermost frames") {
    std::string log = "Traceback (most recent call last):\n";
    for (int i = 0; i < 1000; ++i) log += frame("/w/r.py", i + 1, fmt::format("f{}", i)) + "    f()\n";
    log += "RecursionError: maximum recursion depth exceeded\n";
    auto p = parse_python_text(log);
    const auto& t = p.facts.python.tracebacks.at(0);
    CHECK(t.frames.size() == PythonTraceback::kMaxFrames);
    CHECK(t.frames_omitted == 1000 - PythonTraceback::kMaxFrames);
    CHECK(t.frames.front().function == "f0");
    CHECK(t.innermost()->function == "f999");
    CHECK(p.stats.parsed == p.stats.lines);
  }
  SECTION("thousands of distinct prefixes") {
    std::string log;
    for (int i = 0; i < 3000; ++i)
      log += fmt::format("(w{} pid={}) RuntimeError: x\n", i, i);
    auto p = parse_python_text(log);
    CHECK(counts_add_up(p));
    CHECK(p.facts.python.streams.size() <= 1025);
    CHECK(p.facts.python.tracebacks.size() == 3000);
  }
  SECTION("random bytes") {
    std::string log;
    uint32_t x = 12345;
    for (int i = 0; i < 200000; ++i) {
      x = x * 1103515245 + 12345;
      char c = static_cast<char>(x >> 24);
      if ((x >> 8) % 13 == 0) c = '\n';
      log += c;
    }
    log += "\nTraceback (most recent call last):\n" + frame("/w/a.py", 1, "f") + "E: x\n";
    auto p = parse_python_text(log);
    CHECK(counts_add_up(p));
    REQUIRE_FALSE(p.facts.python.tracebacks.empty());
    CHECK(p.facts.python.tracebacks.back().exception_type == "E");
  }
  SECTION("fact tables are capped and what was not kept is counted") {
    std::string log;
    for (int i = 0; i < 30000; ++i) log += "[W compiler_depend.ts:1] Warning: flood\n";
    for (int i = 0; i < 25000; ++i) log += "RuntimeError: x\n";
    auto p = parse_python_text(log);
    CHECK(p.facts.python.warnings.size() == 20000);
    CHECK(p.facts.python.tracebacks.size() == 20000);
    CHECK(p.facts.python.dropped == 15000);
    CHECK(p.stats.parsed == 55000);
  }
  SECTION("empty input") {
    auto p = parse_python_text("");
    CHECK(p.stats.lines == 0);
    CHECK(p.facts.python.tracebacks.empty());
  }
}
