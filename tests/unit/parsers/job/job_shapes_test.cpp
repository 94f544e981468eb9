// Lines of job output that carry no fact but have a known shape (parsers/job/
// python_job_events.cpp log_record): verbatim lines of the corpus, and near misses that must
// stay "not understood" so the shape share stays honest.
#include <catch2/catch.hpp>

#include <string>

#include "python_test_util.h"

using namespace triage;

namespace {

// Lines recognised by shape when `line` is the whole entry.
uint64_t recognised(const std::string& line) {
  return pytest::parse_python_text(line + "\n").stats.lines_recognised;
}

}  // namespace

TEST_CASE("job shapes: verbatim lines of the corpus are recognised", "[job][shapes]") {
  const char* lines[] = {
      // vllm-ascend-1425 (tqdm) and vllm-ascend-2585 (rate bracket with vLLM's speeds)
      "Loading safetensors checkpoint shards:  50% Completed | 1/2 [00:00<00:00,  2.15it/s]",
      "Processed prompts: 100%|\xe2\x96\x88\xe2\x96\x88| 2/2 [00:00<00:00,  3.69it/s, est. speed input: 18.47 toks/s, output: 59.10 toks/s]",
      "INFO:     Started server process [16994]",                       // uvicorn
      "INFO:     10.113.166.94:58646 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK",
      "[ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!",  // 4256
      "    steps: 110 loss: 1.9161 iter time (s): 0.580 samples/sec: 441.545",            // deepspeed
      "----------------------------------------------------",                             // MindSpore
      "- C++ Call Stack: (For framework developers)",
      "/bin/sh: 1: hccn_tool: not found",                                                 // mindspore-252
      "/home/cmq/miniconda3/envs/lcg-vllm-on-ray/lib/python3.10/site-packages/torch_npu/distributed/"
      "distributed_c10d.py:114: UserWarning: HCCL doesn't support gather at the moment. Implemented with allgather instead.",
      "  warnings.warn(\"HCCL doesn't support gather at the moment. Implemented with allgather instead.\")",
      "(NPURayWorkerWrapper pid=2825344) .",                                              // vLLM dots
  };
  for (const char* l : lines) {
    INFO(l);
    CHECK(recognised(l) == 1);
  }
}

TEST_CASE("job shapes: near misses stay not understood", "[job][shapes]") {
  const char* lines[] = {
      "Loading: 50% of the shards",                  // a percentage, no bar, no rate
      "progress 100%| done",                          // a bar without the rate bracket
      "INFO: started",                                // one blank after the colon: not uvicorn's
      "steps: many loss: none",                       // no step number
      "- Device load error message",                  // a dash item without its colon
      "see mindspore/core/utils/ms_context.cc:327",   // a path inside prose
      "bash: hccn_tool: permission denied",           // not a "not found"
      "x.py:12: this is not a warning",               // a file:line without a Warning category
      "..and then it stopped",                        // dots before prose
  };
  for (const char* l : lines) {
    INFO(l);
    CHECK(recognised(l) == 0);
  }
}

TEST_CASE("job shapes: MindSpore's error layout, as mindyolo-273 prints it", "[job][shapes]") {
  // The C++ stack line under it (`mindspore/core/utils/ms_context.cc:327 Func`) reads as a grep
  // prefix and stays not understood: the count says so.
  auto p = pytest::parse_python_text(
      "----------------------------------------------------\n"
      "- C++ Call Stack: (For framework developers)\n"
      "----------------------------------------------------\n"
      "mindspore/core/utils/ms_context.cc:327 SetDeviceTargetFromInner\n");
  CHECK(p.stats.lines_recognised == 3);
  CHECK(p.stats.lines_unrecognised == 1);
}

TEST_CASE("job shapes: progress dots before a record leave the record's prefix readable", "[job][shapes]") {
  auto p = pytest::parse_python_text(
      "....[rank0]:[E623 13:46:28.176383770 compiler_depend.ts:429] ReshapeAndCacheOperation setup failed!\n");
  CHECK(p.stats.lines_recognised == 1);
  bool rank0 = false;
  for (const auto& s : p.facts.python.streams) rank0 = rank0 || (s.rank && *s.rank == 0);
  CHECK(rank0);
}

TEST_CASE("job output: a report's body lines belong to the process the report names", "[job][pid]") {
  // vllm-ascend-4256: the engine (pid 414) relays its worker's (833) CANN error report
  auto p = pytest::parse_python_text(
      "deepseek-v3_2-exp  | (EngineCore_DP0 pid=414) E39999: Inner Error!\n"
      "deepseek-v3_2-exp  | (EngineCore_DP0 pid=414) E39999[PID: 833] 2025-11-18-10:35:31.222.032 "
      "(E39999):  The error from device(chipId:0, dieId:0), serial number is 3, an exception occurred "
      "during AICPU execution, stream_id:45, task_id:1, errcode:21008, msg:inner error[FUNC:ProcessStarsAicpuErrorInfo]"
      "[FILE:device_error_core_proc.cc][LINE:295]\n"
      "deepseek-v3_2-exp  | (EngineCore_DP0 pid=414)         TraceBack (most recent call last):\n"
      "deepseek-v3_2-exp  | (EngineCore_DP0 pid=414)        Op execute failed. origin_op_name "
      "[MoeDistributeDispatchV2], op_name [MoeDistributeDispatchV2], error_info: task_id 1, stream_id 45, "
      "tid 833, device_id 0, retcode 0x7bc83[FUNC:ErrorTrackerProcess][FILE:error_tracker.cc][LINE:120]\n");
  bool op_hit = false;
  for (const auto& h : p.facts.logs.signature_hits)
    if (h.id == "device-exception/fault-op") {
      op_hit = true;
      CHECK(h.pid == std::optional<int64_t>(833));
      REQUIRE(!h.captures.empty());
      CHECK(h.captures.front().second == "MoeDistributeDispatchV2");
    }
  CHECK(op_hit);
}

TEST_CASE("job output: vLLM's engine banner gives the vLLM version", "[job][versions]") {
  // vllm-ascend #92
  auto p = pytest::parse_python_text(
      "INFO 02-18 12:38:01 llm_engine.py:234] Initializing a V0 LLM engine (v0.7.3.dev191+gb3942e15) "
      "with config: model='Qwen/Qwen2.5-0.5B-Instruct', speculative_config=None\n"
      "INFO 02-18 12:38:01 llm_engine.py:234] Initializing a V0 LLM engine (v0.7.4) with config: x\n");
  REQUIRE(p.facts.libraries.default_pip.size() == 1);  // the first banner wins
  CHECK(p.facts.libraries.default_pip[0].name == "vllm");
  CHECK(p.facts.libraries.default_pip[0].version == "0.7.3.dev191+gb3942e15");
  CHECK(p.facts.libraries.default_pip[0].kind == "banner");
  // near miss: another engine's banner without a version
  auto q = pytest::parse_python_text("INFO Initializing a LLM engine (vision) with config: x\n");
  CHECK(q.facts.libraries.default_pip.empty());
}

TEST_CASE("job shapes: a line a job signature matches is recognised and kept as a hit", "[job][shapes]") {
  // mindspore-docs-cann-errors-ei0002-heartbeat-lost, its last line: glibc aborts the process.
  auto p = pytest::parse_python_text("malloc_consolidate(): invalid chunk size\n");
  CHECK(p.stats.lines_recognised == 1);
  REQUIRE(p.facts.logs.signature_hits.size() == 1);
  const auto& h = p.facts.logs.signature_hits[0];
  CHECK(h.id == "glibc/heap-corruption");
  CHECK(h.source == "job");
  CHECK(h.evidence.line == 1);
  // Prose naming glibc's check is neither a hit nor a known shape.
  for (const char* l : {"malloc_consolidate is called when a large chunk is requested",
                        "The error malloc_consolidate(): invalid chunk size means the heap was corrupted",
                        "free(): invalid pointer errors are usually caused by a double free"}) {
    INFO(l);
    auto q = pytest::parse_python_text(std::string(l) + "\n");
    CHECK(q.facts.logs.signature_hits.empty());
    CHECK(q.stats.lines_recognised == 0);
  }
}
