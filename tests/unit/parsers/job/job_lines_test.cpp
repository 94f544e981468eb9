// Job-output lines that are not tracebacks or CANN reports (parsers/job/job_lines.h), on
// lines copied verbatim from public threads (named above each), and near misses.
#include <catch2/catch.hpp>

#include "parsers/job/job_lines.h"

using namespace triage;
using namespace triage::joblines;

TEST_CASE("job lines: NPU out of memory keeps its figures", "[job][lines]") {
  // xingchensong/TouchNet #100
  auto j = parse_job_line(
      "RuntimeError: NPU out of memory. Tried to allocate 5.03 GiB (NPU 3; 60.96 GiB total "
      "capacity; 49.47 GiB already allocated; 49.47 GiB current active; 1.32 GiB free; 57.55 GiB "
      "reserved in total by PyTorch) If reserved memory is >> allocated memory try setting "
      "max_split_size_mb to avoid fragmentation.");
  REQUIRE(j);
  CHECK(j->kind == JobEventKind::npu_out_of_memory);
  CHECK(j->tried == "5.03 GiB");
  CHECK(j->device == 3);
  CHECK(j->capacity == "60.96 GiB");
  CHECK(j->allocated == "49.47 GiB");
  CHECK(j->free == "1.32 GiB");
  CHECK(j->reserved == "57.55 GiB");
  // The message without its parenthesis still names what was tried.
  auto k = parse_job_line("torch.OutOfMemoryError: NPU out of memory. Tried to allocate 30.00 MiB");
  REQUIRE(k);
  CHECK(k->tried == "30.00 MiB");
  CHECK(!k->device);
  // Near miss: the advice text alone is no failure.
  CHECK(!parse_job_line("If reserved memory is >> allocated memory try setting max_split_size_mb"));
}

TEST_CASE("job lines: loader errors keep library and symbol", "[job][lines]") {
  // vllm-ascend #117
  auto j = parse_job_line(
      "ImportError: /usr/local/python3.10.14/lib/python3.10/site-packages/torch_npu/lib/"
      "libtorch_npu.so: undefined symbol: "
      "_ZN3atb15CreateOperationINS_5infer14GroupTopkParamEEEiRKT_PPNS_9OperationE");
  REQUIRE(j);
  CHECK(j->kind == JobEventKind::undefined_symbol);
  CHECK(j->library == "libtorch_npu.so");
  CHECK(j->symbol == "_ZN3atb15CreateOperationINS_5infer14GroupTopkParamEEEiRKT_PPNS_9OperationE");
  // Ascend/pytorch #35: a quote and `!` after the symbol are not part of it.
  auto q = parse_job_line(
      "/home/ma-user/anaconda3/envs/PyTorch-2.1.0/lib/python3.9/site-packages/torch_npu/lib/"
      "libtorch_npu.so: undefined symbol: _ZN5torch10ValueErrorC1EPKcz'!");
  REQUIRE(q);
  CHECK(q->symbol == "_ZN5torch10ValueErrorC1EPKcz");
  // vllm-ascend #152
  auto m = parse_job_line("ImportError: libatb.so: cannot open shared object file: No such file or directory");
  REQUIRE(m);
  CHECK(m->kind == JobEventKind::library_missing);
  CHECK(m->library == "libatb.so");
  // A native module without the attribute the caller wants (vllm-ascend #340).
  auto a = parse_job_line(
      "[rank0]: AttributeError: module 'torch_npu' has no attribute '_npu_flash_attention'");
  REQUIRE(a);
  CHECK(a->library == "torch_npu");
  CHECK(a->symbol == "_npu_flash_attention");
  // The library whose loading failed because of the missing one (PaddlePaddle #65797).
  auto p = parse_job_line(
      "ValueError: (InvalidArgument) Fail to open library: /usr/local/python3.10/lib/python3.10/"
      "site-packages/paddle_custom_device/libpaddle-custom-npu.so with error: libatb.so: cannot "
      "open shared object file: No such file or directory");
  REQUIRE(p);
  CHECK(p->library == "libatb.so");
  CHECK(p->loaded_by == "libpaddle-custom-npu.so");
  // mindyolo #273
  auto y = parse_job_line(
      "Load dynamic library: libmindspore_ascend.so.2 failed. libge_runner.so: cannot open shared "
      "object file: No such file or directory");
  REQUIRE(y);
  CHECK(y->library == "libge_runner.so");
  CHECK(y->loaded_by == "libmindspore_ascend.so.2");
  // Near misses.
  CHECK(!parse_job_line("ModuleNotFoundError: No module named 'torch_npu._C'"));
  CHECK(!parse_job_line("Looking for undefined symbols in the build"));
}

TEST_CASE("job lines: c10 trace", "[job][lines]") {
  // nnUNet #2439
  auto j = parse_job_line(
      "Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:43 "
      "(most recent call first):");
  REQUIRE(j);
  CHECK(j->kind == JobEventKind::c10_raised_from);
  CHECK(j->call == "c10_cuda_check_implementation");
  CHECK(j->source == "../c10/cuda/CUDAException.cpp:43");
  CHECK(is_c10_frame(
      "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7fe467f85f86 in "
      "/home/maa19/pythonProject1/pythonProject/Maram/venv/lib/python3.9/site-packages/torch/lib/"
      "libc10.so)"));
  CHECK(c10_frame_library(
            "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0xb8 (0xfffc4577c908 "
            "in /usr/local/python3.11.12/lib/python3.11/site-packages/torch/lib/libc10.so)") ==
        "libc10.so");
  CHECK(c10_frame_library("frame #12: python3() [0x634cb2]").empty());
  // latent-diffusion #17: a renderer's `frame_#_0` is not the frame shape.
  CHECK(!is_c10_frame("frame_#_0: c10::Error::Error(c10::SourceLocation, std::string) + 0x42"));
  CHECK(!is_c10_frame("frame #: x"));
}

TEST_CASE("job lines: ACL samples, DCMI and npu-smi", "[job][lines]") {
  // Ascend/samples #16
  auto j = parse_job_line("[ERROR]  acl set device 0 failed, errorCode = 507033");
  REQUIRE(j);
  CHECK(j->kind == JobEventKind::acl_call_failed);
  CHECK(j->code == "507033");
  CHECK(j->call == "acl set device 0");
  CHECK(j->device == 0);
  // reference excerpts (npu-smi failure strings)
  auto d = parse_job_line("dcmi module initialize failed. ret is -8005");
  REQUIRE(d);
  CHECK(d->kind == JobEventKind::dcmi_error);
  CHECK(d->code == "-8005");
  auto u = parse_job_line("dcmi model initialized failed, because the device is used. ret is -8020");
  REQUIRE(u);
  CHECK(u->code == "-8020");
  auto v = parse_job_line("DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)");
  REQUIRE(v);
  CHECK(v->kind == JobEventKind::driver_error);
  CHECK(v->call == "DrvMngGetConsoleLogLevel");
  // The samples' own INFO lines name the device.
  auto a = parse_acl_sample_line("[INFO]  open device 0 success");
  REQUIRE(a);
  CHECK(a->level == "INFO");
  CHECK(a->device == 0);
  CHECK(parse_acl_sample_line("[INFO]  end to reset device is 0")->device == 0);
  // Near misses: one blank after the level is a plog or logger line, not a sample's.
  CHECK(!parse_acl_sample_line("[INFO] GE(1,x):2025-01-01-00:00:00.000.000 [a.cc:1]1 f:x"));
  CHECK(!parse_job_line("[INFO]  open device 0 success"));
  CHECK(!parse_job_line("dcmi module initialize ok"));
}

TEST_CASE("job lines: glog records and device names", "[job][lines]") {
  // PaddlePaddle #65797
  CHECK(glog_pid("I0708 15:01:14.136582 96875 init.cc:236] ENV [CUSTOM_DEVICE_ROOT]=/usr/local/"
                 "python3.10/lib/python3.10/site-packages/paddle_custom_device") == 96875);
  CHECK(!glog_pid("INFO 11-26 22:57:04 selector.py:183] Using ASCEND backend."));
  CHECK(!glog_pid("I0708 started"));
  // vllm-ascend #167: report lines whose header was cut away
  CHECK(device_named("        Failed to open device, retCode=0x7020014, deviceId=1.[FUNC:"
                     "InitRawDriver][FILE:raw_device.cc][LINE:123]") == 1);
  CHECK(device_named("        Failed to init RawDriver, device_id=1, retCode=0x7020014") == 1);
  CHECK(!device_named("dcmi model initialized failed, because the device is used. ret is -8020"));
}

TEST_CASE("job lines: MindCluster component log", "[job][lines]") {
  // MindCluster FAQ (npu-exporter, dcmi -8005)
  auto h = parse_hwlog_line(
      "[ERROR]    2024/10/28 08:50:46.650662 10      devmanager/devmanager.go:91    deviceManager "
      "init failed, prepare dcmi failed, err: dcmi init failed, error code: -8005");
  REQUIRE(h);
  CHECK(h->level == "ERROR");
  CHECK(h->time_text == "2024/10/28 08:50:46.650662");
  CHECK(h->source == "devmanager/devmanager.go:91");
  auto j = parse_job_line(h->message);
  REQUIRE(j);
  CHECK(j->code == "-8005");
  // Near misses: a Go log line without level, and a plog header.
  CHECK(!parse_hwlog_line("2023/10/24 09:55:04 command exec failed, &exec.ExitError{ProcessState:"));
  CHECK(!parse_hwlog_line("[ERROR] RUNTIME(3813,python3):2025-01-10-17:53:52.846.403 [x.cc:1]1 f:x"));
}

TEST_CASE("job lines: MindIE / ATB log line", "[job][lines]") {
  // gpustack #2021 (MindIE on 310P, HCCL communicator set-up)
  auto h = parse_mindie_line(
      "[2025-05-13 02:25:58.64217] [error] [36815] [hccl_runner.cpp:132] AllGatherHcclRunner:0 "
      "HcclCommInitRootInfo fail, error:2, rank:1, rankSize:4");
  REQUIRE(h);
  CHECK(h->level == "error");
  CHECK(h->time_text == "2025-05-13 02:25:58.64217");
  CHECK(h->goroutine == "36815");
  CHECK(h->source == "hccl_runner.cpp:132");
  CHECK(h->message == "AllGatherHcclRunner:0 HcclCommInitRootInfo fail, error:2, rank:1, rankSize:4");
  // Near misses: DeepSpeed's record (level in capitals, no thread), sglang's bracket.
  CHECK(!parse_mindie_line("[2025-07-03 08:57:56,267] [INFO] [logging.py:107:log_dist] [Rank 0] step=110, skipped=0"));
  CHECK(!parse_mindie_line("[2025-02-25 12:05:39 TP0] Load weight end. type=DeepseekV2ForCausalLM, dtype=torch.bfloat16"));
}

TEST_CASE("job lines: MindSpore's own log line", "[job][lines]") {
  // MindSpore #246 (run_check on a 310P)
  auto m = parse_mindspore_line(
      "[ERROR] KERNEL(40354,fffdd6e1f1e0,python):2023-10-13-09:30:47.546.313 "
      "[mindspore/ccsrc/kernel/oplib/op_info_utils.cc:172] LoadOpInfoJson] Get op info json "
      "suffix path failed, soc_version: Ascend310P3");
  REQUIRE(m);
  CHECK(m->level == "ERROR");
  CHECK(m->module == "KERNEL");
  CHECK(m->pid == "40354");
  CHECK(m->tid == "fffdd6e1f1e0");
  CHECK(m->time_text == "2023-10-13-09:30:47.546.313");
  CHECK(m->message.substr(0, 10) == "[mindspore");
  // Near miss: a CANN plog line has no hex thread id in its name field.
  CHECK(!parse_mindspore_line(
      "[ERROR] GE(2440326,python):2024-04-08-15:18:43.444.808 [ops_kernel_manager.cc:95]2440326 "
      "Initialize: ErrorNo: 1343250441"));
}

TEST_CASE("job lines: a runtime code in an application's own words (simpler #2395)", "[job][lines]") {
  auto a = parse_job_line("BootstrapDispatcher: [load_aicpu_op.cpp:211] BootstrapDispatcher: aclrtSynchronizeStream failed: 507018");
  REQUIRE(a);
  CHECK(a->kind == JobEventKind::acl_call_failed);
  CHECK(a->code == "507018");
  CHECK(a->call == "aclrtSynchronizeStream");
  auto b = parse_job_line("  error_code=507018 (device-level; not attributed to any run; names a stream no run of this runner submitted on)");
  REQUIRE(b);
  CHECK(b->code == "507018");
  // Near misses: other numbers after "failed:", a longer number, a code glued to more digits.
  CHECK(!parse_job_line("download failed: 404"));
  CHECK(!parse_job_line("step failed: 3000000"));
  CHECK(!parse_job_line("write failed: 123456789"));
  CHECK(!parse_job_line("error_code=507018abc"));
  CHECK(!parse_job_line("checksum failed: 712345"));
}
