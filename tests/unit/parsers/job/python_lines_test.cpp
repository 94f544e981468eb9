// Single-line recognisers of the Python-log parser, on lines from real logs.
#include <catch2/catch.hpp>
#include <string>

#include "parsers/job/python_lines.h"

using namespace triage;
using namespace triage::pylines;

TEST_CASE("python lines: wrapper prefixes", "[python][lines]") {
  SECTION("torchrun rank, with and without the separator space") {
    auto p = split_prefix("[rank1]:     work = group.allreduce([tensor], opts)");
    CHECK(p.label == "[rank1]:");
    CHECK(p.rank == 1);
    CHECK(p.body == "    work = group.allreduce([tensor], opts)");
    auto q = split_prefix("[rank9]:[W106 19:37:15.186470670 compiler_depend.ts:57] Warning: x");
    CHECK(q.label == "[rank9]:");
    CHECK(q.body.substr(0, 5) == "[W106");
    CHECK(split_prefix("[default3]:Traceback (most recent call last):").rank == 3);
  }
  SECTION("vLLM worker tag and logger prefix") {
    auto p = split_prefix(
        "(VllmWorker TP1 pid=961) ERROR 09-07 01:11:09 [multiproc_executor.py:596] EH9999: "
        "Inner Error!");
    CHECK(p.label == "(VllmWorker TP1 pid=961)");
    CHECK(p.process_name == "VllmWorker TP1");
    CHECK(p.pid == 961);
    CHECK(p.logger_prefix);
    CHECK(p.body == "EH9999: Inner Error!");
    auto q = split_prefix(
        "(Worker_DP0_TP1_EP1 pid=60571) ERROR 12-04 14:46:08 [multiproc_executor.py:597]         "
        "Rectify the fault");
    CHECK(q.body == "        Rectify the fault");
  }
  SECTION("Ray tag with colour codes and ip") {
    auto p = split_prefix("\x1b[36m(train pid=8464)\x1b[0m Traceback (most recent call last):");
    CHECK(p.label == "(train pid=8464)");
    CHECK(p.body == "Traceback (most recent call last):");
    auto q = split_prefix("(RayWorkerWrapper pid=77, ip=10.0.0.5) hello");
    CHECK(q.pid == 77);
    CHECK(q.process_name == "RayWorkerWrapper");
    CHECK(split_prefix("(pid=12) x").pid == 12);
  }
  SECTION("stacked tags form one label; a bare stray fragment stays in the body") {
    auto p = split_prefix("(EngineCore_DP0 pid=553) [rank2]: RuntimeError: x");
    CHECK(p.label == "(EngineCore_DP0 pid=553) [rank2]:");
    CHECK(p.rank == 2);
    CHECK(p.pid == 553);
    CHECK(p.body == "RuntimeError: x");
    CHECK(split_prefix("(EngineCore_2 pid=413)[0;").body == "[0;");
  }
  SECTION("things that are not prefixes") {
    CHECK(split_prefix("(see pid list) x").label.empty());
    CHECK(split_prefix("[rank]: x").label.empty());
    CHECK(split_prefix("[rank99999999999]: x").label.empty());
    CHECK(split_prefix("(unterminated pid=3").label.empty());
    CHECK(split_prefix("").body.empty());
  }
}

TEST_CASE("python lines: traceback parts", "[python][lines]") {
  CHECK(is_traceback_header("Traceback (most recent call last):"));
  CHECK_FALSE(is_traceback_header("        TraceBack (most recent call last):"));
  CHECK(is_report_traceback("        TraceBack (most recent call last):"));
  CHECK(chain_separator("During handling of the above exception, another exception occurred:") ==
        PyChainLink::during_handling);
  CHECK(chain_separator("The above exception was the direct cause of the following exception:") ==
        PyChainLink::direct_cause);

  auto f = parse_frame(
      "  File \"/opt/lmdeploy/lmdeploy/pytorch/engine/model_agent.py\", line 486, in "
      "_start_tp_process");
  REQUIRE(f);
  CHECK(f->file == "/opt/lmdeploy/lmdeploy/pytorch/engine/model_agent.py");
  CHECK(f->line == 486);
  CHECK(f->function == "_start_tp_process");
  auto g = parse_frame("  File \"<frozen importlib._bootstrap>\", line 1, in <module>");
  REQUIRE(g);
  CHECK(g->function == "<module>");
  auto syntax = parse_frame("  File \"train.py\", line 3");
  REQUIRE(syntax);
  CHECK(syntax->function.empty());
  CHECK_FALSE(parse_frame("  File \"/usr/lib/python3.10/site-pack"));
  CHECK(looks_like_frame("  File \"/usr/lib/python3.10/site-pack"));
  CHECK_FALSE(parse_frame("File \"x.py\", line 3, in f"));  // frames are indented
  CHECK_FALSE(parse_frame("  File \"x.py\", line 99999999999999999999999, in f"));

  auto e = parse_exception_line("RuntimeError: ACL stream synchronize failed.");
  REQUIRE(e);
  CHECK(e->type == "RuntimeError");
  CHECK(e->message == "ACL stream synchronize failed.");
  CHECK(parse_exception_line("KeyboardInterrupt")->message.empty());
  CHECK(parse_exception_line("torch.distributed.DistBackendError: boom")->type ==
        "torch.distributed.DistBackendError");
  CHECK(parse_exception_line("ray.exceptions.RayTaskError(RuntimeError): ray::f()")->type ==
        "ray.exceptions.RayTaskError(RuntimeError)");
  CHECK_FALSE(parse_exception_line("Epoch 3: loss 0.1"));
  CHECK_FALSE(parse_exception_line("  RuntimeError: x"));
  CHECK(is_exception_type_name("torch.OutOfMemoryError"));
  CHECK(is_exception_type_name("KeyboardInterrupt"));
  CHECK_FALSE(is_exception_type_name("Solution"));
  CHECK_FALSE(is_exception_type_name("Epoch"));
}

TEST_CASE("python lines: torch_npu ERR line and [Error] text", "[python][lines]") {
  auto e = parse_err_line(
      "[ERROR] 2024-05-21-11:57:54 (PID:927000, Device:3, RankID:3) ERR02200 DIST call hccl api "
      "failed.");
  REQUIRE(e);
  CHECK(e->pid == 927000);
  CHECK(e->device == 3);
  CHECK(e->rank == 3);
  CHECK(e->code == "ERR02200");
  CHECK(e->submodule == "DIST");
  CHECK(e->text == "call hccl api failed.");
  CHECK(e->local.year == 2024);
  CHECK(e->local.second == 54);
  auto n = parse_err_line(
      "[ERROR] 2025-09-07-01:11:09 (PID:961, Device:1, RankID:-1) ERR00100 PTA call acl api failed");
  REQUIRE(n);
  CHECK(n->rank == -1);
  CHECK_FALSE(parse_err_line(
      "[ERROR] 2025-13-07-01:11:09 (PID:961, Device:1, RankID:-1) ERR00100 PTA call acl api"));
  CHECK_FALSE(parse_err_line("[ERROR] RUNTIME(618,python3):2025-03-06-01:09:07.260.779 [x]"));
  CHECK(parse_error_text("[Error]: The execution of the internal task times out. ") ==
        std::string_view("The execution of the internal task times out."));
}

TEST_CASE("python lines: CANN error-report headers in every generation", "[python][lines]") {
  auto inner = parse_report_header("EZ9999: Inner Error!");
  REQUIRE(inner);
  CHECK(inner->inner_error);
  CHECK(inner->code == "EZ9999");

  auto newest = parse_report_header(
      "EZ9999[PID: 244584] 2026-01-06-19:37:15.407.487 (EZ9999):  The error from "
      "device(chipId:4, dieId:1)[FUNC:PrintCoreInfo][FILE:device_error_core_proc.cc][LINE:347]");
  REQUIRE(newest);
  CHECK(newest->style == ReportHeaderStyle::pid_bracket);
  CHECK(newest->pid == 244584);
  CHECK(newest->has_time);
  CHECK(newest->local.micros == 407487);
  CHECK(newest->message.substr(0, 14) == "The error from");

  auto colon = parse_report_header(
      "EZ9999: [PID: 838] 2025-09-04-09:50:11.954.378 The error from device(chipId:6, dieId:0)");
  REQUIRE(colon);
  CHECK(colon->style == ReportHeaderStyle::pid_colon);
  CHECK(colon->pid == 838);

  auto time_only = parse_report_header(
      "EI9999: 2024-10-21-10:42:00.358.410  The error from device(chipId:3, dieId:0)");
  REQUIRE(time_only);
  CHECK(time_only->style == ReportHeaderStyle::time_only);
  CHECK_FALSE(time_only->pid);
  CHECK(time_only->message.substr(0, 3) == "The");

  auto named = parse_report_header(
      "[ERROR] RecentErrMsg: [PID: 240911] 2026-07-21-03:08:18.024.377 Invalid_Argument(EE1001): "
      "The argument is invalid.");
  REQUIRE(named);
  CHECK(named->style == ReportHeaderStyle::named);
  CHECK(named->code == "EE1001");
  CHECK(named->code_name == "Invalid_Argument");
  CHECK(named->carrier == "RecentErrMsg");
  auto slash = parse_report_header(
      "[PID: 389] 2026-05-01-10:59:14.702.326 Device_Absent/Abnormal(EL0001): Device not found.");
  REQUIRE(slash);
  CHECK(slash->code_name == "Device_Absent/Abnormal");
  // The screen prints the title with blanks (CANN HCCL guide, ERROR CQE, EI0013).
  auto spaced = parse_report_header(
      "[PID: 3448331] 2025-12-04-21:59:08.232.310 Execution Error ROCE CQE(EI0013): An error CQE occurred "
      "during operator execution.");
  REQUIRE(spaced);
  CHECK(spaced->code == "EI0013");
  CHECK(spaced->code_name == "Execution Error ROCE CQE");
  CHECK(*spaced->pid == 3448331);
  CHECK(spaced->has_time);
  // A title and its code alone (a fingerprint) or before the message, without pid or time.
  auto titled = parse_report_header("Communication_Error_Get_Socket(EI0006)");
  REQUIRE(titled);
  CHECK(titled->style == ReportHeaderStyle::named);
  CHECK(titled->code == "EI0006");
  CHECK(titled->code_name == "Communication_Error_Get_Socket");
  CHECK(titled->message.empty());
  auto bind = parse_report_header("Communication_Error_Bind_IP_Port(EJ0003): Failed to bind the IP port.");
  REQUIRE(bind);
  CHECK(bind->code == "EJ0003");
  CHECK(bind->message == "Failed to bind the IP port.");
  // Near misses: prose around a title, a lower-case word, a code of the wrong length.
  CHECK_FALSE(parse_report_header("See Communication_Error_Get_Socket(EI0006) in the reference"));
  CHECK_FALSE(parse_report_header("socket(EI0006): lower-case word"));
  CHECK_FALSE(parse_report_header("Communication_Error(EI006)"));

  auto cann = parse_report_header(
      "/x/ggml-cann.cpp:63: CANN error2.25.616.469 E CANN error: EZ9999: Inner Error!");
  REQUIRE(cann);
  CHECK(cann->carrier == "CANN error");
  CHECK(cann->inner_error);

  auto bad_time = parse_report_header("EZ9999: [PID: 1] 2024-01-29-19:2856.519.920 message");
  REQUIRE(bad_time);
  CHECK(bad_time->time_malformed);
  CHECK_FALSE(bad_time->has_time);

  CHECK_FALSE(parse_report_header("E1101: pylint says"));
  CHECK_FALSE(parse_report_header("Epoch: 3"));
  CHECK(find_ecode("NPU error code is:100000 EZ9999: Inner Error") == "EZ9999");
  CHECK(find_ecode("XEZ9999 and EZ99999").empty());
}

TEST_CASE("python lines: [FUNC][FILE][LINE] tails", "[python][lines]") {
  auto t = split_func_tag(
      "       Kernel task happen error, retCode=0x26, [aicore "
      "exception].[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1493]");
  CHECK(t.present);
  CHECK(t.text == "Kernel task happen error, retCode=0x26, [aicore exception].");
  CHECK(t.func == "PreCheckTaskErr");
  CHECK(t.file == "davinci_kernel_task.cc");
  CHECK(t.line == 1493);
  auto no_line = split_func_tag(
      "rtStreamSynchronizeWithTimeout execution failed, reason=stream is "
      "captured[FUNC:FuncErrorReason][FILE:error_message_manage.cc]");
  CHECK(no_line.present);
  CHECK(no_line.line == 0);
  CHECK_FALSE(split_func_tag("Tiling failed").present);
}

TEST_CASE("python lines: torch_npu and runtime error messages", "[python][lines]") {
  auto a = find_torch_error(
      "operator():../torch_npu/csrc/aten/common/LocalScalarDenseNpu.cpp:23 NPU function error: "
      "c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 107027");
  REQUIRE(a);
  CHECK(a->kind == TorchErrorKind::npu_function_error);
  CHECK(a->cpp_function == "operator()");
  CHECK(a->cpp_file == "../torch_npu/csrc/aten/common/LocalScalarDenseNpu.cpp");
  CHECK(a->cpp_line == 23);
  CHECK(a->call == "c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream)");
  CHECK(a->error_code == 107027);

  auto wrapped = find_torch_error(
      "Worker failed with error 'operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:47 "
      "NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error "
      "code is 507048");
  REQUIRE(wrapped);
  CHECK(wrapped->cpp_function == "operator()");
  CHECK(wrapped->cpp_line == 47);
  CHECK(wrapped->error_code == 507048);

  auto ns = find_torch_error(
      "SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:155 NPU function error: "
      "at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), "
      "error code is 500001");
  REQUIRE(ns);
  CHECK(ns->cpp_function == "SetPrecisionMode");
  CHECK(ns->call ==
        "at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode)");

  auto hccl = find_torch_error(
      "create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:149 HCCL function error: "
      "hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error "
      "code is 7");
  REQUIRE(hccl);
  CHECK(hccl->kind == TorchErrorKind::hccl_function_error);
  CHECK(hccl->error_code == 7);

  auto sync = find_torch_error("RuntimeError: ACL stream synchronize failed, error code:507035");
  REQUIRE(sync);
  CHECK(sync->kind == TorchErrorKind::acl_stream_sync);
  CHECK(sync->error_code == 507035);
  CHECK_FALSE(find_torch_error("ACL stream synchronize failed.")->error_code);

  auto legacy = find_torch_error(
      "Run:/usr1/Plugin/torch_npu/csrc/framework/OpParamMaker.cpp:128 NPU error,NPU error code "
      "is:100000 EZ9999: Inner Error");
  REQUIRE(legacy);
  CHECK(legacy->kind == TorchErrorKind::npu_error_legacy);
  CHECK(legacy->cpp_line == 128);
  CHECK(legacy->error_code == 100000);

  auto rt = find_torch_error("rtStreamSynchronize execution failed, reason=task timeout");
  REQUIRE(rt);
  CHECK(rt->kind == TorchErrorKind::runtime_call_failed);
  CHECK(rt->call == "rtStreamSynchronize");
  CHECK(rt->reason == "task timeout");
  auto rt2 = find_torch_error(
      "rtStreamSynchronizeWithTimeout execute failed, reason=[fftsplus "
      "timeout][FUNC:FuncErrorReason]");
  REQUIRE(rt2);
  CHECK(rt2->reason == "fftsplus timeout");

  auto acl = find_torch_error("ACL error: 107020");
  REQUIRE(acl);
  CHECK(acl->kind == TorchErrorKind::acl_error);
  CHECK(acl->error_code == 107020);
  CHECK(find_torch_error("ACL error, the error code is : 500002")->error_code == 500002);

  auto call = find_torch_error(
      "[ERROR] aclrtSynchronizeStream(stream) failed: 507014 (/home/x/SyncAll/main.cpp:84)");
  REQUIRE(call);
  CHECK(call->kind == TorchErrorKind::acl_call_failed);
  CHECK(call->call == "aclrtSynchronizeStream(stream)");
  CHECK(call->cpp_file == "/home/x/SyncAll/main.cpp");
  CHECK(call->cpp_line == 84);

  CHECK_FALSE(find_torch_error("Epoch 1 step 20 loss 2.31"));
  CHECK(find_runtime_result("synchronize stream failed, runtime result = 507048[FUNC:x]") ==
        507048);
  CHECK(find_error_code_is("NPU warning, error code is 507001[Error]: ") == 507001);
}

TEST_CASE("python lines: c10 and Python warnings", "[python][lines]") {
  auto c = parse_c10_line(
      "[W106 19:37:15.186470670 compiler_depend.ts:57] Warning: EZ9999: Inner Error!");
  REQUIRE(c);
  CHECK(c->has_time);
  CHECK(c->month == 1);
  CHECK(c->day == 6);
  CHECK(c->hour == 19);
  CHECK(c->micros == 186470);
  CHECK(c->file == "compiler_depend.ts");
  CHECK(c->line == 57);
  CHECK(c->message == "EZ9999: Inner Error!");
  auto nov = parse_c10_line("[W1106 01:02:03.5 ProcessGroupHCCL.cpp:12] Warning: x");
  REQUIRE(nov);
  CHECK(nov->month == 11);
  CHECK(nov->micros == 500000);
  auto plain = parse_c10_line(
      "[W compiler_depend.ts:487] Warning: NPU warning, error code is 507048[Error]:");
  REQUIRE(plain);
  CHECK_FALSE(plain->has_time);
  CHECK(plain->line == 487);
  CHECK(plain->message == "NPU warning, error code is 507048[Error]:");
  CHECK(parse_c10_line("[E ProcessGroupHCCL.cpp:1202] [Rank 0] Watchdog caught timeout")->level ==
        'E');
  CHECK_FALSE(parse_c10_line("[ERROR] 2025-09-07-01:11:09 (PID:961, Device:1, RankID:-1) x"));
  CHECK_FALSE(parse_c10_line("[W] nothing"));
  auto bad = parse_c10_line("[W1399 25:61:00.1 x.cpp:1] Warning: y");
  REQUIRE(bad);
  CHECK_FALSE(bad->has_time);

  CHECK(function_tail(" (function npuSynchronizeDevice)") == "npuSynchronizeDevice");
  CHECK(function_tail("... [LINE:53] (function empty_cache)") == "empty_cache");
  CHECK(function_tail("(function )").empty());
  CHECK(function_tail("print(x)").empty());

  auto w = parse_python_warning(
      "/usr/lib/python3.10/site-packages/torch_npu/utils/x.py:12: UserWarning: deprecated");
  REQUIRE(w);
  CHECK(w->category == "UserWarning");
  CHECK(w->line == 12);
}

TEST_CASE("python lines: CANN times and tool errors", "[python][lines]") {
  CivilTime t;
  REQUIRE(parse_cann_time("2026-01-06-19:37:15.407.487", t));
  CHECK(t.year == 2026);
  CHECK(t.micros == 407487);
  REQUIRE(parse_cann_time("2025-12-13 12:15:25.025.554", t));
  REQUIRE(parse_cann_time("2025-04-28-02:50:24", t));
  CHECK(t.micros == 0);
  CHECK_FALSE(parse_cann_time("2024-01-29-19:2856.519.920", t));
  CHECK_FALSE(parse_cann_time("2025-02-30-01:00:00", t));
  CHECK(tool_error("cat: /var/log/job/out.txt: No such file or directory"));
  CHECK(tool_error("bash: ascend-dmi: command not found"));
  CHECK_FALSE(tool_error("RuntimeError: x"));
}
