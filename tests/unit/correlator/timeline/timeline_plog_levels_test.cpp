// Warning/error plog lines that no fact kept: collapsed by the plog parser while it reads
// (message without digits, pid, level), shown as one timeline row each, once across the
// run/ and debug/ copies of a log, never twice for a line another fact already made a row of.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>

#include "bundle/byte_source.h"
#include "correlator/timeline/timeline.h"
#include "model/host_facts.h"
#include "ingest/finalize.h"
#include "parsers/plog/plog_parser.h"

using namespace triage;

namespace {

void parse_into(BundleFacts& facts, const std::string& path, const std::string& text) {
  ParseStats stats;
  EntryInfo entry;
  entry.path = path;
  entry.display = path;
  AnalyzeOptions options;
  ParseContext ctx{entry, facts, stats, options};
  StringSource src(text);
  parse_plog(ctx, src);
}

// Plog lines of the real format that no fact or signature keeps (an ERROR that repeats with
// other numbers, a WARNING), a benign start-up line the knowledge marks as such, and an
// error-code line another fact keeps.
const std::string kLog =
    "[ERROR] ASCENDCL(48213,python3):2026-09-04-09:20:46.988.062 [tensor_data_transfer.cpp:912]"
    "48262 MemcpyToDevice: buffer of 4097 bytes is not 32-byte aligned, copied in 2 parts\n"
    "[ERROR] ASCENDCL(48213,python3):2026-09-04-09:20:54.298.062 [tensor_data_transfer.cpp:912]"
    "48262 MemcpyToDevice: buffer of 8193 bytes is not 32-byte aligned, copied in 3 parts\n"
    "[INFO] RUNTIME(48213,python3):2026-09-04-09:21:42.000.001 [runtime.cc:10]48213 Init:ok\n"
    "[WARNING] GE(48213,python3):2026-09-04-09:20:32.450.561 [graph_manager.cc:2318]48213 "
    "PreRun: graph 7 has no output node, skip\n"
    "[ERROR] ASCENDCL(48213,python3):2026-09-04-09:22:00.000.003 [tensor_data_transfer.cpp:912]"
    "48262 MemcpyToDevice: buffer of 65 bytes is not 32-byte aligned, copied in 2 parts\n"
    "[ERROR] RUNTIME(48213,python3):2026-09-04-09:20:46.988.062 [api_impl.cc:1883]48262 "
    "GetDeviceCapability:feature=12 not support on chip type 5, return default value.\n"
    "[ERROR] RUNTIME(48213,python3):2026-09-04-09:45:03.511.960 [stream.cc:1]48213 "
    "rtStreamSynchronize:ErrCode=107020, desc=[task timeout], InnerCode=0x703001c\n";

std::vector<const TimelineEvent*> rows_with(const Timeline& t, std::string_view text) {
  std::vector<const TimelineEvent*> out;
  for (const auto& e : t.events)
    if (e.message.find(text) != std::string::npos) out.push_back(&e);
  return out;
}

}  // namespace

TEST_CASE("warning and error plog lines become collapsed timeline rows, once per copy pair",
          "[timeline][plog_levels]") {
  BundleFacts b;
  b.host = "node07";
  b.system.host_zone = ZoneRule::from_posix("CST-8");
  b.system.host_zone_origin = "system/time.txt";
  parse_into(b, "logs/host/root/ascend/log/debug/plog/plog-48213_20260904092031548.log", kLog);
  parse_into(b, "logs/host/root/ascend/log/run/plog/plog-48213_20260904092031548.log", kLog);
  finalize_facts(b, AnalyzeOptions{});

  REQUIRE(b.logs.plog_entries.size() == 2);
  const auto& rows = b.logs.plog_entries[0].level_lines;
  // The three MemcpyToDevice lines differ only in digits: one row.
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].count == 3);
  CHECK(rows[0].level == PlogLevel::error);
  CHECK(rows[0].evidence.line == 1);
  CHECK(rows[1].count == 1);
  CHECK(rows[1].level == PlogLevel::warning);
  CHECK(rows[1].evidence.line == 4);

  EvidenceSet set;
  set.bundles.push_back(std::move(b));
  Timeline t = build_timeline({}, set, AnalyzeOptions{});
  auto cap = rows_with(t, "is not 32-byte aligned");
  REQUIRE(cap.size() == 1);  // the run/ copy is the same row, not a second one
  CHECK(cap[0]->count == 3);
  CHECK(cap[0]->kind == "log-line");
  CHECK(cap[0]->severity == Severity::error);
  CHECK(cap[0]->pid == 48213);
  CHECK(format_utc(cap[0]->first_utc_us) == "2026-09-04T01:20:46.988062Z");
  CHECK(format_utc(cap[0]->last_utc_us) == "2026-09-04T01:22:00.000003Z");
  auto pkg = rows_with(t, "has no output node");
  REQUIRE(pkg.size() == 1);
  CHECK(pkg[0]->severity == Severity::warning);
  CHECK(rows_with(t, "Init:ok").empty());  // below warning: not an event
  // A start-up line the knowledge calls benign is its signature's info row, not an error.
  auto benign = rows_with(t, "not support on chip type");
  REQUIRE(benign.size() == 1);
  CHECK(benign[0]->kind == "signature:startup/capability-probe");
  CHECK(benign[0]->severity == Severity::info);
  // The error-code line is a row of its own kind, not also a log-line row.
  auto code = rows_with(t, "ErrCode=107020");
  REQUIRE(code.size() == 1);
  CHECK(code[0]->kind != "log-line");
}

TEST_CASE("plog level rows are bounded per entry and the rest counted", "[timeline][plog_levels]") {
  std::string text;
  for (int i = 0; i < 300; ++i)
    text += "[WARNING] GE(7,python3):2026-09-04-09:21:43.000.002 [ge.cc:20]7 Load:message " +
            std::string(1, static_cast<char>('a' + i % 26)) + std::string(1, static_cast<char>('a' + i / 26)) +
            "\n";
  BundleFacts b;
  parse_into(b, "plog-7_20260904092031548.log", text);
  REQUIRE(b.logs.plog_entries.size() == 1);
  const auto& e = b.logs.plog_entries[0];
  CHECK(e.level_lines.size() == PlogFileParser::kMaxLevelRows);
  CHECK(e.level_lines_over_cap == 300 - PlogFileParser::kMaxLevelRows);
}
