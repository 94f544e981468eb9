// The plog file parser: what it keeps (stall reports, sync timeouts, error codes,
// signature hits), how it dedupes copies, how finalize converts times, and hostile input.
#include <catch2/catch.hpp>
#include <string>

#include "bundle/byte_source.h"
#include "model/host_facts.h"
#include "ingest/finalize.h"
#include "ingest/finalize.h"
#include "parsers/plog/plog_parser.h"

using namespace triage;

namespace {

ParseStats parse_into(BundleFacts& facts, const std::string& path, const std::string& text,
                      const AnalyzeOptions& options = {}) {
  ParseStats stats;
  EntryInfo entry;
  entry.path = path;
  entry.display = "bundle!" + path;
  ParseContext ctx{entry, facts, stats, options};
  StringSource src(text);
  parse_plog(ctx, src);
  return stats;
}

const std::string kHostPlog = "logs/host/root/ascend/log/debug/plog/plog-14595_20260301120000000.log";

const std::string kStallNew =
    "[EVENT] RUNTIME(14595,python3):2026-03-01-12:03:00.100.200 [stream.cc:1402]14601 "
    "SynchronizeExecutedTask:report three minutes timeout! stream_id=61, sq_id=2, task_id=393, "
    "sqHead=393, flip_num=0, pendingNum=1.\n";
const std::string kStallOld =
    "[EVENT] RUNTIME(14595,python3):2026-03-01-12:06:00.100.200 [stream.cc:1402]14601 "
    "SynchronizeExecutedTask:report three minutes timeout! stream_id=47, task_id=1280, pendingNum=781.\n";

}  // namespace

TEST_CASE("plog parser keeps both stall-report variants with every field", "[plog_parser]") {
  BundleFacts facts;
  auto stats = parse_into(facts, kHostPlog, kStallNew + kStallOld);
  CHECK(stats.lines == 2);
  CHECK(stats.parsed == 2);
  REQUIRE(facts.logs.stalls.size() == 2);
  const StallReport& a = facts.logs.stalls[0];
  CHECK(a.origin.pid == 14595);
  CHECK(a.origin.process_name == "python3");
  CHECK(a.origin.tid == 14601);
  CHECK(a.stream_id == 61);
  CHECK(a.sq_id == 2);
  CHECK(a.task_id == 393);
  CHECK(a.sq_head == 393);
  CHECK(a.flip_num == 0);
  CHECK(a.pending_num == 1);
  CHECK_FALSE(a.old_variant);
  CHECK_FALSE(a.device_id.has_value());
  CHECK(a.time.valid);
  CHECK(a.time.civil.hour == 12);
  CHECK(a.time.civil.minute == 3);
  CHECK(a.time.civil.micros == 100200);
  CHECK(a.time.time.original == "2026-03-01-12:03:00.100.200");
  CHECK(a.evidence.entry == "bundle!" + kHostPlog);
  CHECK(a.evidence.line == 1);
  CHECK(a.evidence.offset == 0);
  const StallReport& b = facts.logs.stalls[1];
  CHECK(b.old_variant);
  CHECK(b.stream_id == 47);
  CHECK(b.task_id == 1280);
  CHECK(b.pending_num == 781);
  CHECK_FALSE(b.sq_id.has_value());
  CHECK_FALSE(b.sq_head.has_value());
  CHECK_FALSE(b.flip_num.has_value());
  CHECK(b.evidence.line == 2);
  CHECK(b.evidence.offset == kStallNew.size());
  // the knowledge signature matched too, with its captures
  REQUIRE(facts.logs.signature_hits.size() == 2);
  const SignatureHit& h = facts.logs.signature_hits[0];
  CHECK(h.id == "stream-stall/three-minute-report");
  CHECK(h.pid == 14595);
  std::map<std::string, std::string> cap(h.captures.begin(), h.captures.end());
  CHECK(cap["stream_id"] == "61");
  CHECK(cap["sq_head"] == "393");
  CHECK(cap["pending_num"] == "1");
}

TEST_CASE("plog parser: stall device id from the path, the message, or the same stream", "[plog_parser]") {
  SECTION("path device-<id>/") {
    BundleFacts facts;
    parse_into(facts, "logs/host/root/ascend/log/debug/device-3/device-14595_20260301120000000.log",
               kStallNew);
    REQUIRE(facts.logs.stalls.size() == 1);
    CHECK(facts.logs.stalls[0].device_id == 3);
    CHECK(facts.logs.stalls[0].device_id_source == DeviceIdSource::path);
    CHECK(facts.logs.plog_entries[0].pid_from_name == 14595);
  }
  SECTION("a later line of the same pid naming the stream and a device") {
    BundleFacts facts;
    parse_into(facts, kHostPlog,
               kStallNew +
                   "[ERROR] RUNTIME(14595,python3):2026-03-01-12:09:00.000.001 [stars_engine.cc:1624]14601 "
                   "ProcLogicCqReport:Task run failed, device_id=5, stream_id=61, task_id=393\n" +
                   "[ERROR] RUNTIME(999,python3):2026-03-01-12:09:00.000.001 [stars_engine.cc:1624]999 "
                   "ProcLogicCqReport:Task run failed, device_id=7, stream_id=47, task_id=1\n" +
                   kStallOld);
    REQUIRE(facts.logs.stalls.size() == 2);
    CHECK(facts.logs.stalls[0].device_id == 5);
    CHECK(facts.logs.stalls[0].device_id_source == DeviceIdSource::same_stream);
    // stream 47 has a device only in another process: not taken
    CHECK_FALSE(facts.logs.stalls[1].device_id.has_value());
  }
}

TEST_CASE("plog parser keeps sync timeouts and error codes in every form", "[plog_parser]") {
  BundleFacts facts;
  std::string text =
      "[ERROR] RUNTIME(1234,python3):2026-03-01-12:10:00.000.001 [stream.cc:1480]1234 "
      "SynchronizeExecutedTask:Stream synchronize timeout, device_id=11, stream_id=103, timeout=10000, tryCount=10.\n"
      "/root/ascend/log/debug/plog/plog-901649_20260613170033666.log:3:[ERROR] RUNTIME(901649,aiv_aicpu_bench):"
      "2026-06-13-17:00:33.665.610 [davinci_task.cc:209]902058 SetStarsResultForDavinciTask:AICPU Kernel "
      "task happen error, retCode=0x2a.\n"
      "/root/ascend/log/debug/plog/plog-901649_20260613170033666.log:11:[ERROR] RUNTIME(901649,aiv_aicpu_bench):"
      "2026-06-13-17:00:33.666.168 [api_c_stream.cc:161]901649 rtStreamSynchronize:ErrCode=507018, "
      "desc=[aicpu exception], InnerCode=0x715002a\n"
      "/root/ascend/log/debug/plog/plog-901649_20260613170033666.log:13:[ERROR] ASCENDCL(901649,aiv_aicpu_bench):"
      "2026-06-13-17:00:33.666.644 [stream.cpp:139]901649 aclrtSynchronizeStreamImpl:synchronize stream "
      "failed, runtime result = 507018\n"
      "[ERROR] RUNTIME(3813,python3):2025-01-10-17:53:52.846.403 [device_error_proc.cc:1409] 3813 "
      "ProcessStarsCoreErrorInfo:[INIT][DEFAULT]report error module_type=5, module_name=EZ9999\n"
      "[ERROR] RUNTIME(10686,msame):2025-03-19-15:09:46.643.880 [hwts_engine.cc:128]10686 ReportExceptProc:"
      "[EXEC][DEFAULT]Task exception! device_id=0, stream_id=3, task_id=1, type=13(MODEL_EXECUTE), "
      "failuremode =0, retCode=0x91, [the model stream execute failed]\n"
      "[ERROR] APP(7,python3):2025-03-06-01:09:07.262.746 [log_inner.cpp:76]7 x.ts:f:1: HCCL function "
      "error: hcclCommInitRootInfoConfig, error code is 7\n";
  auto stats = parse_into(facts, kHostPlog, text);
  CHECK(stats.parsed == 7);
  REQUIRE(facts.logs.sync_timeouts.size() == 1);
  const auto& t = facts.logs.sync_timeouts[0];
  CHECK(t.device_id == 11);
  CHECK(t.stream_id == 103);
  CHECK(t.timeout_ms == 10000);
  CHECK(t.try_count == 10);
  auto& codes = facts.logs.error_codes;
  REQUIRE(codes.size() == 6);
  CHECK(codes[0].form == ErrorCodeForm::ret_code);
  CHECK(codes[0].code == "0x2a");
  CHECK(codes[1].form == ErrorCodeForm::err_code);
  CHECK(codes[1].code == "507018");
  CHECK(codes[1].description == "aicpu exception");
  CHECK(codes[1].inner_code == "0x715002a");
  CHECK(codes[1].module == "RUNTIME");
  CHECK(codes[1].origin.pid == 901649);
  CHECK(codes[2].form == ErrorCodeForm::runtime_result);
  CHECK(codes[2].code == "507018");
  CHECK(codes[2].module == "ASCENDCL");
  CHECK(codes[3].form == ErrorCodeForm::message_code);
  CHECK(codes[3].code == "EZ9999");
  CHECK(codes[4].form == ErrorCodeForm::ret_code);
  CHECK(codes[4].code == "0x91");
  CHECK(codes[4].description == "the model stream execute failed");
  CHECK(codes[4].device_id == 0);
  CHECK(codes[5].form == ErrorCodeForm::error_code_is);
  CHECK(codes[5].code == "7");
}

TEST_CASE("plog parser: a message code as a word of its own inside an error line", "[plog_parser]") {
  BundleFacts facts;
  const std::string text =
      // ascend-fd's AISW_CANN_ERRMSG_Custom_04 fragments inside a line, and a code in brackets
      "[ERROR] HCCL(20146,python3):2026-03-01-12:03:00.100.200 [fd_fragment.cc:100]20146 Func:EI0006 Getting "
      "socket times out Reason:\n"
      "[ERROR] GE(20146,python3):2026-03-01-12:03:00.100.300 [graph.cc:7]20146 Run: build failed [E19014] x\n"
      // a code where the function's name sits ("EI0002:" read as the function)
      "[ERROR] HCCL(20146,python3):2026-03-01-12:03:00.100.350 [a.cc:1]20146 EI0002: The wait execution of "
      "the Notify register times out.\n"
      // near misses: the same words at a lower level, a code glued to a word, a longer token
      "[WARNING] HCCL(20146,python3):2026-03-01-12:03:00.100.400 [a.cc:1]20146 Func:EI0006 Getting socket\n"
      "[ERROR] HCCL(20146,python3):2026-03-01-12:03:00.100.500 [a.cc:1]20146 see doc_EI0006 now\n"
      "[ERROR] HCCL(20146,python3):2026-03-01-12:03:00.100.600 [a.cc:1]20146 id EI00061 and EZ999x\n";
  auto stats = parse_into(facts, kHostPlog, text);
  CHECK(stats.parsed == 6);
  const auto& codes = facts.logs.error_codes;
  REQUIRE(codes.size() == 3);
  CHECK(codes[0].form == ErrorCodeForm::message_code);
  CHECK(codes[0].code == "EI0006");
  CHECK(codes[0].module == "HCCL");
  CHECK(codes[1].code == "E19014");
  CHECK(codes[2].code == "EI0002");
}

TEST_CASE("plog parser: a line whose ErrCode= is empty leaves the previous line's description", "[plog_parser]") {
  BundleFacts facts;
  std::string text =
      "[ERROR] RUNTIME(901649,aiv_aicpu_bench):2026-06-13-17:00:33.666.168 [api_c_stream.cc:161]901649 "
      "rtStreamSynchronize:ErrCode=507018, desc=[aicpu exception], InnerCode=0x715002a\n"
      "[ERROR] RUNTIME(901649,aiv_aicpu_bench):2026-06-13-17:00:33.666.170 [api_c_stream.cc:161]901649 "
      "rtStreamSynchronize:ErrCode=, desc=[damaged], InnerCode=0x1\n";
  parse_into(facts, kHostPlog, text);
  REQUIRE(facts.logs.error_codes.size() == 1);
  CHECK(facts.logs.error_codes[0].description == "aicpu exception");
  CHECK(facts.logs.error_codes[0].inner_code == "0x715002a");
}

// Copies in other entries are kept while reading and dropped by finalize, which keeps the
// copy of the entry listed first (load lists them in walk order, not read order).
TEST_CASE("plog parser keeps a line seen in run/ and debug/ copies once", "[plog_parser]") {
  BundleFacts facts;
  parse_into(facts, kHostPlog, kStallNew + kStallOld + kStallNew);  // repeated in its own entry
  parse_into(facts, "logs/host/root/ascend/log/run/plog/plog-14595_20260301120000000.log",
             kStallNew + kStallOld);
  parse_into(facts, "probes/rand.stdout", "noise\n" + kStallNew);
  // a different pid at the same time is a different line
  parse_into(facts, "logs/host/root/ascend/log/run/plog/plog-14596_20260301120000000.log",
             std::string(kStallNew).replace(kStallNew.find("14595"), 5, "14596"));
  CHECK(facts.logs.stalls.size() == 6);  // the repeat in one entry is dropped while reading
  REQUIRE(facts.logs.plog_entries.size() == 4);
  CHECK(facts.logs.plog_entries[0].duplicates == 1);
  finalize_facts(facts, AnalyzeOptions{});
  REQUIRE(facts.logs.stalls.size() == 3);
  for (const auto& s : facts.logs.stalls) CHECK(s.evidence.entry.find("/run/plog/plog-14595") == std::string::npos);
  CHECK(facts.logs.stalls[0].evidence.entry == "bundle!" + kHostPlog);
  CHECK(facts.logs.signature_hits.size() == 3);
  CHECK(facts.logs.plog_entries[0].duplicates == 1);
  CHECK(facts.logs.plog_entries[1].duplicates == 2);
  CHECK(facts.logs.plog_entries[2].duplicates == 1);
  CHECK(facts.logs.plog_entries[3].duplicates == 0);
}

TEST_CASE("plog parser counts lines by level and module", "[plog_parser]") {
  BundleFacts facts;
  std::string text = kStallNew + kStallOld +
                     "[INFO] HCCL(1,p):2026-03-01-11:00:00.000.000 [a.cc:1] [1][F]m\n"
                     "[ERROR] HCCL(1,p):2026-03-01-12:30:00.000.000 [a.cc:1] [1][F]m\n"
                     "not a plog line\n";
  auto stats = parse_into(facts, kHostPlog, text);
  CHECK(stats.unrecognised == 1);
  CHECK(stats.variant == "plog");
  const auto& s = facts.logs.plog_entries.at(0);
  CHECK(s.by_level[static_cast<size_t>(PlogLevel::event)] == 2);
  CHECK(s.by_level[static_cast<size_t>(PlogLevel::info)] == 1);
  CHECK(s.by_level[static_cast<size_t>(PlogLevel::error)] == 1);
  REQUIRE(s.by_module.size() == 2);
  CHECK(s.by_module[0] == std::make_pair(std::string("HCCL"), uint64_t{2}));
  CHECK(s.by_module[1] == std::make_pair(std::string("RUNTIME"), uint64_t{2}));
  CHECK(s.first.civil.minute == 3);
  CHECK(s.last.civil.minute == 30);
}

TEST_CASE("finalize converts plog local times with the process's or the host's zone", "[plog_parser]") {
  AnalyzeOptions options;
  SECTION("host zone +08:00") {
    BundleFacts facts;
    facts.system.host_zone = ZoneRule::fixed(8 * 3600);
    facts.system.host_zone_origin = "system/time.txt";
    parse_into(facts, kHostPlog, kStallNew);
    finalize_facts(facts, options);
    const auto& t = facts.logs.stalls.at(0).time.time;
    CHECK(t.basis == TimeBasis::local_known_zone);
    CHECK(format_utc(t.utc_us) == "2026-03-01T04:03:00.100200Z");
    CHECK(t.original == "2026-03-01-12:03:00.100.200");
    CHECK(facts.logs.signature_hits.at(0).time.time.utc_us == t.utc_us);
    CHECK(facts.logs.knowledge_origin == "built-in");
  }
  SECTION("the process's own zone wins") {
    BundleFacts facts;
    facts.system.host_zone = ZoneRule::fixed(8 * 3600);
    facts.processes.by_pid[14595].zone = ZoneRule::fixed(0);
    facts.processes.by_pid[14595].zone_origin = "processes/14595/tz.txt";
    parse_into(facts, kHostPlog, kStallNew);
    finalize_facts(facts, options);
    CHECK(format_utc(facts.logs.stalls.at(0).time.time.utc_us) == "2026-03-01T12:03:00.100200Z");
  }
  SECTION("no zone: the time stays unknown, or --utc-offset is assumed") {
    BundleFacts facts;
    parse_into(facts, kHostPlog, kStallNew);
    finalize_facts(facts, options);
    CHECK(facts.logs.stalls.at(0).time.time.basis == TimeBasis::unknown);
    BundleFacts facts2;
    AnalyzeOptions assumed;
    assumed.utc_offset_seconds = 3600;
    parse_into(facts2, kHostPlog, kStallNew);
    finalize_facts(facts2, assumed);
    CHECK(facts2.logs.stalls.at(0).time.time.basis == TimeBasis::local_assumed_zone);
    CHECK(format_utc(facts2.logs.stalls.at(0).time.time.utc_us) == "2026-03-01T11:03:00.100200Z");
  }
}

TEST_CASE("plog parser counts hostile lines and never crashes", "[plog_parser]") {
  std::string text;
  text += kStallNew;
  static const char kNul[] = "[ERROR] RUNTIME(1,p):2026-03-01-12:00:00.000.001 [a.cc:1]1 F:nul\0here\n";
  text += std::string(kNul, sizeof kNul - 1);
  text += "[ERROR] RUNTIME(1,p):2026-03-01-12:00:00.000.001 [a.cc:1]1 F:" + std::string(2 << 20, 'x') + "\n";
  text += "[ERROR] RUNTIME(1,p):2026-03-01-12:00:00.000.001 [a.cc:1]1 F:bad utf8 \xff\xfe\xc3\n";
  text += "[ERROR] RUNTIME(1,python3):2026-03-01-12:0\n";
  text += "[ERROR] RUNTIME(\n";
  static const char kGarbage[] = "\xff\xfe\x00\x01 garbage\n";
  text += std::string(kGarbage, sizeof kGarbage - 1);
  text += "just some text\n";
  text += "[EVENT] RUNTIME(1,p):2026-03-01-12:00:00.000.001 [a.cc:1]1 F:last line without newline";
  BundleFacts facts;
  auto stats = parse_into(facts, kHostPlog, text);
  CHECK(stats.lines == 9);  // 8 newlines + an unterminated last line
  CHECK(stats.lines == static_cast<uint64_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  CHECK(stats.parsed == 3);
  CHECK(stats.malformed == 5);  // two NUL lines, the 2 MB line, two broken headers
  CHECK(stats.unrecognised == 1);
  CHECK(stats.samples_of_malformed.size() == ParseStats::kMaxMalformedSamples);
  CHECK(stats.samples_of_malformed[0].line == 2);
  CHECK(stats.samples_of_malformed[0].excerpt.find("\\x00") != std::string::npos);
  CHECK(stats.bytes == text.size());
  CHECK(facts.logs.stalls.size() == 1);
}

TEST_CASE("plog parser: a tool's error text is 'not collected'", "[plog_parser]") {
  BundleFacts facts;
  auto stats = parse_into(facts, kHostPlog, "cat: /root/ascend/log/debug/plog: Permission denied\n");
  CHECK(stats.not_collected == "Permission denied");
  CHECK(stats.parsed == 0);
  CHECK(stats.unrecognised == 1);
}

TEST_CASE("plog parser reads lines with a grep prefix and locks the variant", "[plog_parser]") {
  BundleFacts facts;
  std::string text =
      "run/plog/plog-1_2.log:1:[INFO] RUNTIME(1,p):2025-01-01-00:00:00.000.001 [a.cc:1]1 F:m\n"
      "run/plog/plog-1_2.log:2:[INFO] RUNTIME(1,p):2025-01-01-00:00:00.000.002 [a.cc:1]1 F:m\n";
  auto stats = parse_into(facts, "extra/grep.txt", text);
  CHECK(stats.parsed == 2);
  CHECK(stats.variant == "plog+grep-n");
}

TEST_CASE("plog parser: a line that fails the grammar at an error level is a level row", "[plog_parser][level_line]") {
  // Issue 36: an error-level line is never silent. MindSpore's launcher writes `pid:tid` where
  // a plog header has `pid,process` (tests/data/real/mindact-1983-msrun-scheduler-grep-
  // timeout-node); a header cut by the paste still says ERROR. A WARNING one stays a
  // malformed line only.
  const std::string text =
      kStallNew +
      "[ERROR] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:38.720.000 "
      "[mindspore/parallel/cluster/process_entity/_api.py:331] Scheduler process 162146 exit with exception.\n"
      "[ERROR] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:38.722.000 "
      "[mindspore/parallel/cluster/process_entity/_api.py:331] Scheduler process 162147 exit with exception.\n"
      "[WARNING] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:38.721.000 "
      "[mindspore/parallel/cluster/process_entity/_api.py:334] Analyzing exception log...\n"
      "[ERROR] HCCL(1,python3):2026-03-01-12:0\n"
      "ERROR:root:HCCL wait failed, EI0002: The wait execution of the Notify register times out.\n";
  BundleFacts facts;
  auto stats = parse_into(facts, kHostPlog, text);
  CHECK(stats.malformed == 4);   // the three ME headers and the cut one
  CHECK(stats.unrecognised == 1);  // Python logging's line: no plog line, but an error level
  CHECK(stats.lines_unrecognised == 0);
  REQUIRE(facts.logs.plog_entries.size() == 1);
  const auto& rows = facts.logs.plog_entries[0].level_lines;
  REQUIRE(rows.size() == 3);  // the two ME lines are one template and pid
  CHECK(rows[0].level == PlogLevel::error);
  CHECK(rows[0].pid == 162078);
  CHECK(rows[0].count == 2);
  CHECK(rows[0].evidence.line == 2);
  CHECK(rows[1].pid == 1);
  CHECK(rows[1].evidence.line == 5);
  CHECK(rows[2].code == "EI0002");
  CHECK(rows[2].pid == 0);
}
