// The time at the start of a job-output line (parsers/job/job_line_time.h), on lines copied
// from the corpus and public threads (named above each), and near misses; then the parser:
// continuation lines take the stamp of their record, a year-less time takes its year from the
// bundle or stays as written (issue 38).
#include <catch2/catch.hpp>

#include "ingest/finalize.h"
#include "parsers/common/line_prefix.h"
#include "parsers/job/job_line_time.h"
#include "python_test_util.h"

using namespace triage;
using namespace triage::joblines;
using triage::pytest::parse_python_text;

namespace {

// tests/data/real/ascend-pytorch-35-libtorch-npu-undefined-symbol/output.txt (Ascend/pytorch#35)
const char* kMmengine =
    "05/22 09:09:35 - mmengine - WARNING - WARNING: command error: 'Failed to import "
    "transformers.optimization because of the following error (look up to see its traceback):\n"
    "/home/ma-user/anaconda3/envs/PyTorch-2.1.0/lib/python3.9/site-packages/torch_npu/lib/"
    "libtorch_npu.so: undefined symbol: _ZN5torch10ValueErrorC1EPKcz'!\n"
    "05/22 09:09:35 - mmengine - WARNING - \n";

const SignatureHit* hit_on_line(const BundleFacts& f, uint64_t line) {
  for (const SignatureHit& h : f.logs.signature_hits)
    if (h.evidence.line == line) return &h;
  return nullptr;
}

}  // namespace

TEST_CASE("line time: year-less stamps are read as written, with no year", "[job][time]") {
  auto t = read_line_time("05/22 09:09:35 - mmengine - WARNING - WARNING: command error: 'Failed");
  REQUIRE(t);
  CHECK(t->form == "mmengine");
  CHECK(t->text == "05/22 09:09:35");
  CHECK_FALSE(t->has_year());
  CHECK(t->local.month == 5);
  CHECK(t->local.day == 22);
  CHECK(t->local.hour == 9);
  CHECK(t->local.second == 35);
  // LiBai (knowledge/job-text-forms.tsv detectron_logger's sample)
  t = read_line_time("[09/10 10:38:03 lb.engine.trainer]: Starting training from iteration 0");
  REQUIRE(t);
  CHECK(t->form == "detectron2");
  CHECK(t->text == "09/10 10:38:03");
  // glog / klog (knowledge/job-text-forms.tsv klog_error's sample)
  t = read_line_time("E1206 12:00:00.000000       1 server.go:77] failed to allocate: rpc error");
  REQUIRE(t);
  CHECK(t->form == "glog");
  CHECK(t->text == "1206 12:00:00.000000");
  CHECK(t->local.month == 12);
  CHECK_FALSE(t->has_year());
  // glog 0.7 writes the year
  t = read_line_time("F20251111 08:12:03.123456 12 npu_runner.cc:30] Check failed: ret == 0");
  REQUIRE(t);
  CHECK(t->local.year == 2025);
  CHECK(t->local.micros == 123456);
  // vLLM's logger prefix, which line_prefix.h takes off the body
  LinePrefix p = split_line_prefix("ERROR 09-07 01:11:09 [multiproc_executor.py:596] WorkerProc hit an exception.");
  REQUIRE_FALSE(p.logger.empty());
  CHECK_FALSE(read_line_time(p.body));
  t = read_logger_time(p.logger);
  REQUIRE(t);
  CHECK(t->form == "vllm");
  CHECK(t->text == "09-07 01:11:09");
  // Without a year 29 February stands: a leap year may have printed it.
  CHECK(read_line_time("02/29 23:59:59 - mmengine - INFO - Epoch(train) [1][ 50/500]"));
}

TEST_CASE("line time: full dates keep their year", "[job][time]") {
  // Python logging's asctime (LLaMA-Factory, MindSpeed)
  auto t = read_line_time("2024-09-04 02:46:04,123 - root - ERROR - HCCL timeout");
  REQUIRE(t);
  CHECK(t->form == "iso");
  CHECK(t->has_year());
  CHECK(t->local.year == 2024);
  CHECK(t->local.micros == 123000);
  CHECK(t->text == "2024-09-04 02:46:04,123");
  // SGLang (knowledge/job-text-forms.tsv sglang_batch's sample)
  t = read_line_time("[2025-05-12 10:01:02 TP0] Prefill batch. #new-seq: 1, #new-token: 7");
  REQUIRE(t);
  CHECK(t->text == "2025-05-12 10:01:02");
  // Go's log package
  t = read_line_time("2024/10/28 08:50:46 failed to get device list");
  REQUIRE(t);
  CHECK(t->form == "slash");
  CHECK(has_own_date("[ERROR] RUNTIME(38734,python3):2024-04-08-15:18:43.123.456 [api.cc:12] x"));
  CHECK(has_own_date("EE9999[PID: 172700] 2026-06-22-10:11:57.444.271 (EE9999):  Not allow"));
  CHECK_FALSE(has_own_date("Tried to allocate 2.00 GiB (NPU 0; 12/31 total)"));
}

TEST_CASE("line time: near misses are no time", "[job][time]") {
  CHECK_FALSE(read_line_time("see the run of 05/22 09:09:35 - mmengine for details"));  // not at the start
  CHECK_FALSE(read_line_time("05/22 09:09:35 the job started"));  // not mmengine's ` - name - `
  CHECK_FALSE(read_line_time("12/31 25:00:00 - mmengine - INFO - x"));  // hour 25
  CHECK_FALSE(read_line_time("13/01 10:00:00 - mmengine - INFO - x"));  // month 13
  CHECK_FALSE(read_line_time("02/30 10:00:00 - mmengine - INFO - x"));  // 30 February
  CHECK_FALSE(read_line_time("05/22 09:09:35x - mmengine - INFO - x"));
  CHECK_FALSE(read_line_time("[09/10 10:38:03 lb.engine.trainer] Starting training"));  // no `]: `
  CHECK_FALSE(read_line_time("I0522 09:09:35 no fraction, no glog"));
  CHECK_FALSE(read_line_time("Iteration 1000 loss 2.3"));
  CHECK_FALSE(read_line_time("E2025 12:00:00.000000 x.go:1] five digits"));
  CHECK_FALSE(read_line_time("2024-13-04 02:46:04 month 13"));
  CHECK_FALSE(read_line_time("05/22"));
  CHECK_FALSE(read_logger_time("ERROR 12-31 25:00:00 [x.py:1]"));
}

TEST_CASE("line time: a continuation line takes its record's stamp; no year stays as written",
          "[job][time][python]") {
  auto p = parse_python_text(kMmengine);
  const SignatureHit* h = hit_on_line(p.facts, 2);  // the undefined symbol, on the line after the stamp
  REQUIRE(h);
  CHECK(h->time.valid);
  CHECK(h->time.civil.month == 5);
  CHECK(h->time.civil.year == 0);
  CHECK_FALSE(h->time.time.known());  // never a guessed full date
  CHECK(h->time.time.original == "05/22 09:09:35");
}

TEST_CASE("line time: the year from the bundle: an earlier full date of the entry, else the collection",
          "[job][time][python]") {
  AnalyzeOptions options;
  options.utc_offset_seconds = 8 * 3600;
  SECTION("collection time") {
    auto p = parse_python_text(kMmengine, options);
    p.facts.system.collected_at_us = *parse_iso8601_utc_us("2025-06-01T00:00:00Z");
    finalize_facts(p.facts, options);
    const SignatureHit* h = hit_on_line(p.facts, 2);
    REQUIRE(h);
    CHECK(h->time.time.basis == TimeBasis::year_estimated);
    CHECK(format_utc(h->time.time.utc_us) == "2025-05-22T01:09:35Z");
    CHECK(h->time.time.original == "05/22 09:09:35");
  }
  SECTION("a full date in the same entry") {
    std::string log = std::string("[2024-05-21 23:00:00] job started\n") + kMmengine;
    auto p = parse_python_text(log, options);
    const SignatureHit* h = hit_on_line(p.facts, 3);
    REQUIRE(h);
    CHECK(h->time.time.basis == TimeBasis::year_estimated);
    CHECK(format_utc(h->time.time.utc_us) == "2024-05-22T01:09:35Z");
  }
  SECTION("a line with a date of its own ends the carried stamp") {
    std::string log = std::string("05/22 09:09:35 - mmengine - INFO - start\n") +
                      "[ERROR] RUNTIME(38734,python3):2024-04-08-15:18:43.123.456 [api.cc:12] x\n"
                      "/home/ma-user/anaconda3/envs/PyTorch-2.1.0/lib/python3.9/site-packages/torch_npu/lib/"
                      "libtorch_npu.so: undefined symbol: _ZN5torch10ValueErrorC1EPKcz'!\n";
    auto p = parse_python_text(log);
    const SignatureHit* h = hit_on_line(p.facts, 3);
    REQUIRE(h);
    CHECK_FALSE(h->time.valid);
  }
}

TEST_CASE("line time: a job-output entry's span is its first and last stamped line", "[job][time][python]") {
  // vLLM-style INFO lines: nothing to keep but when the entry ran.
  auto p = parse_python_text(
      "INFO 11-02 08:15:01 [loader.py:30] Available plugins for group platform_plugins:\n"
      "  a continuation without a time\n"
      "INFO 11-02 08:15:03 [loader.py:44] plugin loaded.\n"
      "INFO 11-02 08:16:40 [loader.py:247] Platform plugin is activated\n");
  REQUIRE(p.facts.python.spans.size() == 1);
  const JobSpan& s = p.facts.python.spans[0];
  CHECK(s.first == "11-02 08:15:01");
  CHECK(s.first_at.line == 1);
  CHECK(s.last == "11-02 08:16:40");
  CHECK(s.last_at.line == 4);
  CHECK(s.last_at.entry == s.first_at.entry);
  CHECK(s.stamped == 3);
  // Near miss: an entry without a stamped line has no span.
  auto q = parse_python_text("plain output\nno time here 12:00 either\n");
  CHECK(q.facts.python.spans.empty());
}
