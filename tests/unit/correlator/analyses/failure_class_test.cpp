// failure-class on in-memory facts: verbatim corpus lines (tests/data/real) give their class,
// near misses give nothing, and the table's rows decide (not the analysis's code).
#include <catch2/catch.hpp>

#include "correlator/analyses/device_exception.h"
#include "correlator/analyses/failure_class.h"
#include "knowledge/failure_classes.h"

#include "analysis_test_support.h"

using namespace triage;

namespace {

PythonTraceback exception_line(std::string type, std::string message, uint64_t line = 7) {
  PythonTraceback t;
  t.complete = true;
  t.exception_type = std::move(type);
  t.message = std::move(message);
  t.evidence_exception = make_evidence("output.txt", line, 0, t.exception_type + ": " + t.message);
  return t;
}

std::vector<Finding> run(const BundleFacts& b) { return testing::run_analysis(analyze_failure_class, b); }

}  // namespace

TEST_CASE("failure-class: NPU out of memory keeps its figures", "[failure_class]") {
  BundleFacts b;
  // hiyouga/LlamaFactory#5491
  b.python.tracebacks.push_back(exception_line(
      "RuntimeError",
      "NPU out of memory. Tried to allocate 386.00 MiB (NPU 2; 60.97 GiB total capacity; 59.57 GiB already "
      "allocated; 59.57 GiB current active; 16.54 MiB free; 60.06 GiB reserved in total by PyTorch)"));
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "device-memory/exhausted");
  CHECK(out[0].observed.find("Tried to allocate 386.00 MiB (NPU 2;") != std::string::npos);
  CHECK(out[0].evidence.at(0).line == 7);
  CHECK_FALSE(out[0].does_not_prove.empty());
}

TEST_CASE("failure-class: an out-of-memory traceback names its allocating call", "[failure_class]") {
  auto frame = [](std::string file, std::string source) {
    PyFrame f;
    f.file = std::move(file);
    f.line = 57;
    f.source = std::move(source);
    return f;
  };
  BundleFacts b;
  auto t = exception_line("RuntimeError", "NPU out of memory. Tried to allocate 8.00 GiB (NPU 1; 60.96 GiB total capacity)");
  t.frames.push_back(frame("/srv/app/cache/pool.py", "self.blocks = torch.empty("));
  // A wrapper of torch_npu between the job's call and the error is not the call.
  t.frames.push_back(frame("/usr/lib/python3/site-packages/torch_npu/contrib/transfer_to_npu.py", "return fn(*args, **kwargs)"));
  b.python.tracebacks.push_back(t);
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "device-memory/exhausted");
  CHECK(*out[0].find_value("operator") == "torch.empty");
  CHECK(out[0].observed.find("Operator: torch.empty.") != std::string::npos);
  // Near misses: a frame's source without a call names none; another class keeps no call.
  BundleFacts plain;
  auto u = t;
  u.frames.front().source = "blocks = cached";
  plain.python.tracebacks.push_back(u);
  out = run(plain);
  REQUIRE(out.size() == 1);
  CHECK(*out[0].find_value("operator") == "");
  BundleFacts shape;
  auto v = exception_line("RuntimeError", "mat1 and mat2 shapes cannot be multiplied (4x3 and 4x5)");
  v.frames.push_back(frame("/srv/app/model.py", "y = layer.forward(x)"));
  shape.python.tracebacks.push_back(v);
  out = run(shape);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "operator-error");
  CHECK(out[0].find_value("operator")->find("layer.forward") == std::string::npos);
}

TEST_CASE("failure-class: an allocation no device holds is no memory exhaustion", "[failure_class]") {
  BundleFacts b;
  // flashserve/flash-linear-attention-npu#149 (as a traceback's exception line), and a PiB size
  b.python.tracebacks.push_back(exception_line("RuntimeError", "NPU out of memory. Tried to allocate more than 1EB memory"));
  b.python.tracebacks.push_back(exception_line(
      "RuntimeError", "NPU out of memory. Tried to allocate 2.00 PiB (NPU 0; 60.97 GiB total capacity)", 9));
  CHECK(run(b).empty());
  // Near miss: a GiB request is memory pressure.
  b.python.tracebacks.push_back(exception_line(
      "RuntimeError", "NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 29.50 GiB total capacity)", 11));
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "device-memory/exhausted");
  CHECK(out[0].evidence.at(0).line == 11);
}

TEST_CASE("failure-class: a module CANN's own code imports is missing: import-path", "[failure_class]") {
  BundleFacts b;
  // microsoft/onnxruntime#14121: tbe imports decorator, which the job's Python lacks
  auto t = exception_line("ModuleNotFoundError", "No module named 'decorator'", 5);
  PyFrame f;
  f.file = "/usr/local/Ascend/ascend-toolkit/6.0.RC1/python/site-packages/tbe/tvm/target.py";
  f.line = 67;
  t.frames.push_back(f);
  b.python.tracebacks.push_back(t);
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "import-path");
  CHECK(out[0].evidence.at(0).line == 5);
  // Near miss: the same module missing in the job's own code says nothing about CANN.
  BundleFacts job;
  auto u = exception_line("ModuleNotFoundError", "No module named 'decorator'", 5);
  f.file = "/home/user/train.py";
  u.frames.push_back(f);
  job.python.tracebacks.push_back(u);
  CHECK(run(job).empty());
}

TEST_CASE("failure-class: an undefined symbol names the library and the symbol", "[failure_class]") {
  BundleFacts b;
  // Ascend/pytorch#99
  b.python.tracebacks.push_back(exception_line(
      "OSError",
      "/home/mtp/Ascend/nnal/atb/latest/atb/cxx_abi_1/lib/libtbe_adapter.so: undefined symbol: "
      "_ZN3Mki2DlC1ERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEb"));
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "library-load/failed");
  CHECK(*out[0].find_value("library") == "libtbe_adapter.so");
  CHECK(*out[0].find_value("symbol") == "_ZN3Mki2DlC1ERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEb");
  CHECK(*out[0].find_value("library_kind") == "undefined-symbol");
}

TEST_CASE("failure-class: a library the loader cannot find is a missing library", "[failure_class]") {
  BundleFacts b;
  // PaddlePaddle/Paddle#69146
  b.python.tracebacks.push_back(exception_line(
      "ValueError",
      "(InvalidArgument) Fail to open library: /data/x/libpaddle-custom-npu.so with error: libatb.so: cannot open "
      "shared object file: No such file or directory"));
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(*out[0].find_value("library") == "libatb.so");
  CHECK(*out[0].find_value("library_kind") == "missing-library");
  CHECK(*out[0].find_value("library_stack") == "yes");  // NNAL's ATB
}

TEST_CASE("failure-class: a missing library no Ascend package installs is the job's own dependency",
          "[failure_class]") {
  auto stack_of = [](const std::string& message) {
    BundleFacts b;
    b.python.tracebacks.push_back(exception_line("ImportError", message));
    auto out = run(b);
    REQUIRE(out.size() == 1);
    return *out[0].find_value("library_stack");
  };
  // vllm-project/vllm-ascend#6949: Mooncake's transport library, fixed with LD_LIBRARY_PATH.
  CHECK(stack_of("ascend_transport.so: cannot open shared object file: No such file or directory") == "no");
  // Near misses: the stack's own libraries, with and without a directory, by their prefix.
  CHECK(stack_of("libhccl.so: cannot open shared object file: No such file or directory") == "yes");
  CHECK(stack_of("/usr/local/Ascend/driver/lib64/driver/libascend_hal.so: cannot open shared object file: No "
                 "such file or directory") == "yes");
  CHECK(stack_of("libtorch_npu.so: cannot open shared object file: No such file or directory") == "yes");
  CHECK(stack_of("libgomp-a34b3233.so.1: cannot open shared object file: No such file or directory") == "no");
}

TEST_CASE("failure-class: a bare loader line is a missing library of its own kind", "[failure_class]") {
  // PaddlePaddle/FastDeploy#2540: a glog FATAL line of the plug-in loader, no ImportError around it
  const std::string line =
      "[F 10/28 12:31:52. 73 ...nadapter/nnadapter/src/runtime/device.cc:529 Find] Failed to load the nnadapter "
      "device HAL library for 'huawei_ascend_npu' from libhuawei_ascend_npu.so, libascendcl.so: cannot open shared "
      "object file: No such file or directory";
  BundleFacts b;
  SignatureHit h;
  h.id = "loader/shared-object-not-found";
  h.source = "job";
  h.evidence = make_evidence("output.txt", 2, 0, line);
  b.logs.signature_hits.push_back(h);
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "library-load/failed");
  CHECK(*out[0].find_value("library") == "libascendcl.so");
  CHECK(*out[0].find_value("library_kind") == "loader-line");
  // The same library named by a traceback too: a missing library, as before.
  b.python.tracebacks.push_back(exception_line("OSError", "libascendcl.so: cannot open shared object file: No such file or directory", 9));
  out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(*out[0].find_value("library_kind") == "missing-library");
}

TEST_CASE("failure-class: an aclnn parameter error is an operator error with its operator", "[failure_class]") {
  BundleFacts b;
  // Ascend/pytorch#45
  auto t = exception_line("RuntimeError",
                          "call aclnnInplaceMaskedFillScalar failed, detail:EZ1001: mask expected scalar type DT_BOOL "
                          "but found DT_FLOAT.");
  t.ecode = "EZ1001";
  b.python.tracebacks.push_back(t);
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "operator-error");
  CHECK(*out[0].find_value("operator") == "aclnnInplaceMaskedFillScalar");
  CHECK(*out[0].find_value("matched") == "EZ1001");
}

TEST_CASE("failure-class: torch_npu's own ERR codes of a rejected call are operator errors", "[failure_class]") {
  // The torch_npu FAQ's pastes (tests/data/real/ascend-pytorch-docs-*): ERR<submodule><type>,
  // types 001-003 and 007 reject the job's call; 100 (an ACL call failed) says nothing of why.
  auto err = [](std::string code, std::string sub, std::string text) {
    ErrLine e;
    e.code = std::move(code);
    e.submodule = std::move(sub);
    e.text = std::move(text);
    e.evidence = make_evidence("output.txt", 6, 0, "[ERROR] 2024-11-28-11:37:15 (PID:6547, Device:0, RankID:-1) " +
                                                     e.code + " " + e.submodule + " " + e.text);
    return e;
  };
  BundleFacts b;
  b.python.err_lines.push_back(err("ERR01007", "OPS", "feature not supported"));
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "operator-error");
  CHECK(*out[0].find_value("matched") == "ERR01007");
  CHECK(out[0].evidence.at(0).line == 6);
  b.python.err_lines[0] = err("ERR02002", "DIST", "invalid type");
  CHECK(run(b).size() == 1);
  // Near misses: an ACL call that failed, an HCCL call, an internal error, and a core feature
  // not supported (a stream capture: the install decides, ms-swift-6684).
  for (auto [code, sub, text] : {std::tuple{"ERR00100", "PTA", "call acl api failed"},
                                 std::tuple{"ERR02200", "DIST", "call hccl api failed"},
                                 std::tuple{"ERR01005", "OPS", "internal error"},
                                 std::tuple{"ERR00007", "PTA", "feature not supported"}}) {
    b.python.err_lines[0] = err(code, sub, text);
    CHECK(run(b).empty());
  }
}

TEST_CASE("failure-class: no NPU back-end is job code, with whether torch_npu shows in the job", "[failure_class]") {
  // opendatalab/MinerU#2665: the line alone, nothing shows torch_npu anywhere.
  BundleFacts alone;
  alone.python.tracebacks.push_back(exception_line(
      "RuntimeError",
      "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, lazy, vulkan, mps, "
      "meta, hpu, mtia, privateuseone device type at start of device string: npu",
      1));
  auto out = run(alone);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "job-code");
  REQUIRE(out[0].find_value("torch_npu_loaded") != nullptr);
  CHECK(*out[0].find_value("torch_npu_loaded") == "no");
  // vllm-project/vllm-ascend#92: torch_npu's own ERR line in the same paste (the driver process
  // ran it; a Ray worker did not import it).
  BundleFacts with_err = alone;
  ErrLine e;
  e.code = "ERR99999";
  e.submodule = "UNKNOWN";
  e.evidence = make_evidence("output.txt", 2, 0, "[ERROR] 2025-02-18-11:36:19 (PID:2756150, Device:-1, RankID:-1) ERR99999 UNKNOWN applicaiton exception");
  with_err.python.err_lines.push_back(e);
  out = run(with_err);
  REQUIRE(out.size() == 1);
  CHECK(*out[0].find_value("torch_npu_loaded") == "yes");
  // A frame inside the torch_npu package says the same.
  BundleFacts with_frame;
  auto t = exception_line("AttributeError", "module 'torch' has no attribute 'npu'", 3);
  PyFrame f;
  f.file = "/usr/lib/python3.10/site-packages/torch_npu/utils/_device.py";
  t.frames.push_back(f);
  with_frame.python.tracebacks.push_back(t);
  out = run(with_frame);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "job-code");
  CHECK(*out[0].find_value("torch_npu_loaded") == "yes");
  // torch's PrivateUse1 check is the same family; other classes carry no torch_npu_loaded.
  BundleFacts hooks;
  hooks.python.tracebacks.push_back(exception_line(
      "RuntimeError", "Please register PrivateUse1HooksInterface by `RegisterPrivateUse1HooksInterface` first.", 4));
  hooks.python.tracebacks.push_back(exception_line("RuntimeError", "NPU out of memory. Tried to allocate 2.00 GiB (NPU 0)", 6));
  out = run(hooks);
  REQUIRE(out.size() == 2);
  for (const auto& g : out)
    CHECK((g.find_value("torch_npu_loaded") != nullptr) == (g.id == "job-code"));
}

TEST_CASE("failure-class: EC0010 names a missing Python module of CANN, not a module of another version", "[failure_class]") {
  BundleFacts b;
  ErrorReportBlock r;
  r.code = "EC0010";
  r.message = "Failed to import Python module [ModuleNotFoundError: No module named 'decorator'].";
  r.evidence = make_evidence("output.txt", 4, 0, "EC0010: " + r.message);
  b.python.error_reports.push_back(r);
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "import-path");
  // opendatalab/MinerU#2258: NumPy 2 removed an attribute CANN uses: not a missing package.
  BundleFacts numpy2;
  r.message = "Failed to import Python module [AttributeError: `np.float_` was removed in the NumPy 2.0 release. Use `np.float64` instead..].";
  r.evidence = make_evidence("output.txt", 4, 0, "EC0010: " + r.message);
  numpy2.python.error_reports.push_back(r);
  CHECK(run(numpy2).empty());
}

TEST_CASE("failure-class: near misses raise nothing", "[failure_class]") {
  BundleFacts b;
  b.python.tracebacks.push_back(exception_line("RuntimeError", "CUDA out of memory is not an NPU message"));
  b.python.tracebacks.push_back(exception_line("ImportError", "cannot import name 'x' from 'y'", 9));
  b.python.tracebacks.push_back(exception_line("RuntimeError", "call aclnnCast failed, detail:EZ9999: inner", 11));
  CHECK(run(b).empty());
}

TEST_CASE("failure-class: the table decides, a row removed removes the class", "[failure_class]") {
  std::vector<std::string> errors;
  auto table = parse_failure_classes("match\ttext\tclass\tmeaning\tsource\nphrase\tNPU out of memory\tdevice-memory\tm\ts\n",
                                     "t.tsv", errors);
  CHECK(errors.empty());
  CHECK(table.of_text("RuntimeError: NPU out of memory. Tried") != nullptr);
  CHECK(table.of_code("EZ1001") == nullptr);
  parse_failure_classes("match\ttext\tclass\tmeaning\tsource\nregex\tx\tnope\tm\ts\n", "t.tsv", errors);
  CHECK(errors.size() == 1);
  CHECK(errors[0].find("t.tsv:2") == 0);
}

TEST_CASE("device-exception: errorStr decides whether the fault points at the operator", "[failure_class]") {
  auto with_error_str = [](std::string s) {
    BundleFacts b;
    ErrorCodeFact e;
    e.code = "507015";
    e.origin.pid = 7;
    e.evidence = make_evidence("plog-7.log", 3, 0, "ErrCode=507015");
    b.logs.error_codes.push_back(e);
    SignatureHit h;
    h.id = "device-exception/error-str";
    h.pid = 7;
    h.captures = {{"error_str", std::move(s)}};
    h.evidence = make_evidence("plog-7.log", 4, 0, "errorStr");
    b.logs.signature_hits.push_back(h);
    return testing::run_analysis(analyze_device_exception, b);
  };
  auto op = with_error_str("VEC instruction error: the ub address out of bounds");
  REQUIRE(op.size() == 1);
  CHECK(*op[0].find_value("points_at") == "operator");
  auto unknown = with_error_str("timeout or trap error");
  REQUIRE(unknown.size() == 1);
  CHECK(*unknown[0].find_value("points_at") == "");
}

TEST_CASE("failure-class: torch_npu's out-of-memory line outside a traceback is device memory", "[failure_class]") {
  // vllm-project/vllm-ascend#5020: a wrapper printed the exception as `Error:<type>: <message>`.
  const std::string line =
      "Error:RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity; "
      "55.91 GiB already allocated; 55.91 GiB current active; 1.80 GiB free; 58.73 GiB reserved in total by "
      "PyTorch)";
  BundleFacts b;
  JobEvent e;
  e.kind = JobEventKind::npu_out_of_memory;
  e.evidence = make_evidence("output.txt", 1, 0, line);
  b.python.job_events.push_back(e);
  auto out = run(b);
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "device-memory/exhausted");
  // Near miss: a logger's error line naming an operator code is not read here (no report).
  BundleFacts l;
  JobEvent level;
  level.kind = JobEventKind::level_line;
  level.code = "EZ1001";
  level.evidence = make_evidence("output.txt", 1, 0,
                                 "ERROR 02-11 11:32:58 engine.py:389] call aclnnPromptFlashAttentionV3 failed, "
                                 "detail:EZ1001: [PID: 312378] 2025-02-11-11:32:58.201.638 PromptFlashAttention "
                                 "LaunchAicore failed.");
  l.python.job_events.push_back(level);
  CHECK(run(l).empty());
}
