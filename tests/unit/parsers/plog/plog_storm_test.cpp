// Storm folding (issue 35): a template repeated past kPlogKeptPerTemplate kept lines costs a
// count on its last kept line's facts, never a new fact; stall reports are always kept. The
// same for kernel lines, where a storm's copy in a lesser source is dropped as a copy.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

#include "bundle/byte_source.h"
#include "ingest/finalize.h"
#include "ingest/finalize.h"
#include "model/host_facts.h"
#include "parsers/common/log_text.h"
#include "parsers/kernel/kernel_parser.h"
#include "parsers/plog/plog_parser.h"

#include "bundle_test_util.h"

using namespace triage;

namespace {

// ../shared/reference/real-log-excerpts.md, line 79 (msame, 2025-03-19): the serial number, core id,
// time and pc vary per line as they do in a storm.
std::string aicore_line(int pid, int i) {
  return fmt::format(
      "[ERROR] RUNTIME({0},msame):2025-03-19-15:{1:02}:{2:02}.645.779 [device_error_proc.cc:634]{0} "
      "PrintCoreErrorInfo:[EXEC][DEFAULT]The error from device(0), serial number is {3}, there is an "
      "aicore error, core id is {4}, error code = 0x800000, dump info: pc start: 0x800124040115000, "
      "current: 0x1240401{5:x}, vec error info: 0x1fe5feff, mte error info: 0x30000c2, ifu error info: "
      "0x3733fa77ff500, ccu error info: 0xffe5ff7b001f1ffb, cube error info: 0xfc, biu error info: 0, "
      "aic error mask: 0x65000200d000288, para base: 0x124040114180, errorStr: The DDR address of the "
      "MTE instruction is out of range.\n",
      pid, 9 + i / 60, i % 60, i + 1, i % 24, 0x154e4 + i * 16);
}

const std::string kPlog = "logs/host/root/ascend/log/debug/plog/plog-10686_20250319150946000.log";

}  // namespace

TEST_CASE("message template keys leave out digits and 0x values only", "[plog_storm]") {
  CHECK(message_template_key("serial number is 12, pc: 0x1a2b") ==
        message_template_key("serial number is 7, pc: 0xFF"));
  CHECK(message_template_key("error code = 0") == message_template_key("error code = 0x800000"));
  CHECK(message_template_key("op Add failed") != message_template_key("op Mul failed"));
  CHECK(message_template_key("dead beef") != message_template_key("dead "));  // hex only after 0x
}

TEST_CASE("a storm of one template keeps its first lines and counts the rest", "[plog_storm]") {
  const int n = 200;
  std::string text;
  for (int i = 0; i < n; ++i) text += aicore_line(10686, i);
  for (int i = 0; i < 3; ++i) text += aicore_line(10687, i);  // another process: its own template
  BundleFacts facts;
  testing::parse_into(facts, parse_plog, kPlog, text);

  const std::string id = "device-exception/aicore-error";
  uint64_t kept = 0, lines = 0, kept_other = 0;
  const SignatureHit* last = nullptr;
  for (const auto& h : facts.logs.signature_hits) {
    if (h.id != id) continue;
    if (h.pid == 10687) {
      ++kept_other;
      CHECK(h.repeats.lines == 0);
      continue;
    }
    ++kept;
    lines += 1 + h.repeats.lines;
    if (h.repeats.lines) last = &h;
  }
  CHECK(kept == kPlogKeptPerTemplate);
  CHECK(lines == static_cast<uint64_t>(n));
  CHECK(kept_other == 3);
  REQUIRE(last != nullptr);
  // The 64th line carries the count and the last folded line's time (line 200: 15:12:19).
  CHECK(last->evidence.line == kPlogKeptPerTemplate);
  CHECK(last->repeats.last.civil.minute == 12);
  CHECK(last->repeats.last.civil.second == 19);
  const PlogEntrySummary& s = facts.logs.plog_entries.at(0);
  CHECK(s.folded_lines == static_cast<uint64_t>(n) - kPlogKeptPerTemplate);
  CHECK(s.folded_templates == 1);

  finalize_facts(facts, AnalyzeOptions{});
  for (const auto& h : facts.logs.signature_hits)
    if (h.repeats.lines) CHECK(h.repeats.last.time.original == "2025-03-19-15:12:19.645.779");
}

TEST_CASE("stall reports are never folded: every report's values are kept", "[plog_storm]") {
  std::string text;
  for (int i = 0; i < 150; ++i)
    text += fmt::format(
        "[EVENT] RUNTIME(14595,python3):2026-03-01-{:02}:{:02}:00.100.200 [stream.cc:1402]14601 "
        "SynchronizeExecutedTask:report three minutes timeout! stream_id=61, sq_id=2, task_id=393, "
        "sqHead=393, flip_num=0, pendingNum=1.\n",
        12 + i / 20, (i % 20) * 3);
  BundleFacts facts;
  testing::parse_into(facts, parse_plog, "logs/host/root/ascend/log/debug/plog/plog-14595_20260301120000000.log", text);
  CHECK(facts.logs.stalls.size() == 150);
  CHECK(facts.logs.plog_entries.at(0).folded_lines == 0);
  for (const auto& h : facts.logs.signature_hits) CHECK(h.repeats.lines == 0);
}

namespace {

// Words that differ per line (letters, not digits), so that no two lines share a template.
std::string word(int i) {
  std::string w;
  for (int k = 0; k < 4; ++k, i /= 26) w += static_cast<char>('a' + i % 26);
  return w;
}

// The ERR-line shape of real-log-excerpts.md (`... failed, error code is 507035`), one
// distinct message a line, from one pid on device 0 or 1.
std::string coded_line(int pid, int device, int i) {
  return fmt::format("[ERROR] RUNTIME({0},python3):2026-03-01-12:{1:02}:{2:02}.100.200 [api_c.cc:{3}]{0} "
                     "rt{4}Task:device_id={5}, {4} of kernel {6} failed, error code is 507035\n",
                     pid, i / 60 % 60, i % 60, 100 + i, word(i), device, word(i * 7 + 3));
}

}  // namespace

TEST_CASE("distinct messages naming one code keep a bounded number of code facts and count the rest",
          "[plog_storm]") {
  const int n = 600;
  std::string text;
  for (int i = 0; i < n; ++i) text += coded_line(14595, 0, i);
  for (int i = 0; i < 5; ++i) text += coded_line(14595, 1, i);  // another device: its own group
  BundleFacts facts;
  testing::parse_into(facts, parse_plog, "logs/host/root/ascend/log/debug/plog/plog-14595_20260301120000000.log", text);
  uint64_t kept0 = 0, lines0 = 0, kept1 = 0, lines1 = 0;
  const ErrorCodeFact* carrier = nullptr;
  for (const auto& f : facts.logs.error_codes) {
    if (f.code != "507035") continue;
    uint64_t& kept = f.device_id == 1 ? kept1 : kept0;
    uint64_t& lines = f.device_id == 1 ? lines1 : lines0;
    ++kept;
    lines += 1 + f.repeats.lines;
    if (f.repeats.lines) carrier = &f;
  }
  CHECK(kept0 == PlogFileParser::kKeptPerCode);
  CHECK(lines0 == static_cast<uint64_t>(n));  // none dropped: every line is counted
  CHECK(kept1 == 5);
  CHECK(lines1 == 5);
  REQUIRE(carrier != nullptr);
  CHECK(carrier->evidence.line == PlogFileParser::kKeptPerCode);
  CHECK(facts.logs.plog_entries.at(0).folded_lines == static_cast<uint64_t>(n) - PlogFileParser::kKeptPerCode);
  // A copy key per line that kept a fact, none for the lines only counted (issue 35).
  CHECK(facts.logs.plog_seen_keys.size() == PlogFileParser::kKeptPerCode + 5);
  finalize_facts(facts, AnalyzeOptions{});
  for (const auto& f : facts.logs.error_codes)  // line 600: 12:09:59
    if (f.repeats.lines) CHECK(f.repeats.last.time.original == "2026-03-01-12:09:59.100.200");
}

namespace {

// real-log-excerpts.md 1.19 (device-os klogd): the devmm fault printk, va varied per line.
std::string vm_fault(int i) {
  return fmt::format("[ascend] [ERROR] [devmm] [devmm_svm_device_fault 438] <python3:{},{}> Vm fault failed. "
                     "(hostpid=1885445; devid=0; va=0x{:x})",
                     4051, 4051 + i % 8, 0x124080000000 + i * 4096);
}

const int64_t kStormBtime = days_from_civil(2026, 3, 1) * 86400 + 12 * 3600;  // 12:00:00Z

}  // namespace

TEST_CASE("a kernel storm in the journal and in a wrapped dmesg ring counts each line once", "[plog_storm]") {
  const int n = 300;  // one line each 10 ms, 100 s after boot; the dmesg ring kept the last 120
  std::string journal, dmesg;
  for (int i = 0; i < n; ++i) {
    int64_t uptime_us = 100'000'000 + int64_t{i} * 10'000;
    journal += fmt::format(
        "{{\"__REALTIME_TIMESTAMP\":\"{}\",\"_BOOT_ID\":\"0123456789abcdef0123456789abcdef\",\"PRIORITY\":\"3\","
        "\"MESSAGE\":\"{}\"}}\n",
        kStormBtime * 1000000 + uptime_us, vm_fault(i));
    if (i >= n - 120) dmesg += fmt::format("[{:5}.{:06}] {}\n", uptime_us / 1000000, uptime_us % 1000000, vm_fault(i));
  }
  BundleFacts facts;
  facts.system.btime = kStormBtime;
  facts.system.boot_id = "01234567-89ab-cdef-0123-456789abcdef";
  testing::parse_into(facts, parse_journal_json, "kernel/journal-b0.jsonl", journal);
  testing::parse_into(facts, parse_dmesg, "kernel/dmesg.txt", dmesg);
  REQUIRE(facts.logs.kernel_entries.size() == 2);
  CHECK(facts.logs.kernel_entries[0].folded_lines == static_cast<uint64_t>(n) - kPlogKeptPerTemplate);
  CHECK(facts.logs.kernel_entries[1].folded_lines == 120 - kPlogKeptPerTemplate);
  finalize_facts(facts, AnalyzeOptions{});
  // The journal's 64 kept lines stand for all 300; the dmesg lines all fall inside the span
  // the journal folded, so none is an event of its own.
  uint64_t lines = 0;
  for (const auto& e : facts.logs.kernel_events) {
    CHECK(e.form == KernelLogForm::journal_json);
    lines += 1 + e.repeats.lines;
  }
  CHECK(facts.logs.kernel_events.size() == kPlogKeptPerTemplate);
  CHECK(lines == static_cast<uint64_t>(n));
  const KernelEvent& head = facts.logs.kernel_events.back();
  CHECK(head.repeats.last.utc_us == (kStormBtime * 1000000 + 100'000'000 + int64_t{n - 1} * 10'000));
  uint64_t hit_lines = 0;
  for (const auto& h : facts.logs.signature_hits) hit_lines += 1 + h.repeats.lines;
  CHECK(hit_lines == static_cast<uint64_t>(n));  // vm-fault: one signature per line
}

// Folding per process (parsers/plog/plog_process_fold.h): a process whose plog rotated over
// several files keeps kPlogKeptPerTemplate lines of a template in all, not in each file, and
// the facts kept do not depend on which file was read first.
TEST_CASE("a storm over the rotated files of one process keeps its first lines in all and counts the rest",
          "[plog_storm]") {
  const int per_file = 100;
  auto file_text = [&](int file) {
    std::string text;
    for (int i = 0; i < per_file; ++i) text += aicore_line(10686, file * per_file + i);
    return text;
  };
  // The first file holds the earliest lines; read in either order, the kept lines are the same.
  const std::string first = "logs/host/root/ascend/log/debug/plog/plog-10686_20250319150946000.log";
  const std::string second = "logs/host/root/ascend/log/debug/plog/plog-10686_20250319151046000.log";
  auto kept_lines = [&](bool second_first) {
    BundleFacts facts;
    if (second_first) testing::parse_into(facts, parse_plog, second, file_text(1));
    testing::parse_into(facts, parse_plog, first, file_text(0));
    if (!second_first) testing::parse_into(facts, parse_plog, second, file_text(1));
    finalize_facts(facts, AnalyzeOptions{});
    std::vector<std::pair<std::string, uint64_t>> kept;
    uint64_t lines = 0;
    for (const auto& h : facts.logs.signature_hits) {
      if (h.id != "device-exception/aicore-error") continue;
      kept.emplace_back(h.evidence.entry, h.evidence.line);
      lines += 1 + h.repeats.lines;
    }
    CHECK(lines == 2 * per_file);  // every line counted once
    return kept;
  };
  auto in_order = kept_lines(false);
  CHECK(in_order.size() == kPlogKeptPerTemplate);
  for (const auto& [entry, line] : in_order) CHECK(entry.find("151046") == std::string::npos);
  CHECK(kept_lines(true) == in_order);
}

TEST_CASE("a template in two processes' files is folded per process", "[plog_storm]") {
  BundleFacts facts;
  std::string a, b;
  for (int i = 0; i < 80; ++i) a += aicore_line(10686, i);
  for (int i = 0; i < 80; ++i) b += aicore_line(20686, i);
  testing::parse_into(facts, parse_plog, kPlog, a);
  testing::parse_into(facts, parse_plog, "logs/host/root/ascend/log/debug/plog/plog-20686_20250319150946000.log", b);
  finalize_facts(facts, AnalyzeOptions{});
  std::map<int64_t, uint64_t> kept, lines;
  for (const auto& h : facts.logs.signature_hits) {
    if (h.id != "device-exception/aicore-error") continue;
    ++kept[*h.pid];
    lines[*h.pid] += 1 + h.repeats.lines;
  }
  CHECK(kept[10686] == kPlogKeptPerTemplate);
  CHECK(kept[20686] == kPlogKeptPerTemplate);
  CHECK(lines[10686] == 80);
  CHECK(lines[20686] == 80);
}

// The fold also runs while the bundle is read, per directory (plog_process_fold.h): many
// rotated files of one process stay bounded while they are read, and the facts kept after
// finalize are those of the fold at the end alone: the earliest lines, every line counted.
TEST_CASE("a storm over many rotated files stays bounded while read, with the facts of the fold at the end",
          "[plog_storm]") {
  const int files = 90, per_file = 70;  // 6,300 lines: past the early fold's 4,096 facts
  auto line_at = [](int i) {  // aicore_line's text, one second apart over hours
    return fmt::format(
        "[ERROR] RUNTIME(10686,msame):2025-03-19-{:02}:{:02}:{:02}.645.779 [device_error_proc.cc:634]10686 "
        "PrintCoreErrorInfo:[EXEC][DEFAULT]The error from device(0), serial number is {}, there is an "
        "aicore error, core id is {}, error code = 0x800000, errorStr: The DDR address of the MTE "
        "instruction is out of range.\n",
        10 + i / 3600, i / 60 % 60, i % 60, i + 1, i % 24);
  };
  auto name = [](int file) {
    return fmt::format("logs/host/root/ascend/log/debug/plog/plog-10686_2025031910{:04}000.log", file);
  };
  auto read = [&](bool reverse) {
    BundleFacts facts;
    size_t most = 0;
    for (int k = 0; k < files; ++k) {
      const int file = reverse ? files - 1 - k : k;
      std::string text;
      for (int i = 0; i < per_file; ++i) text += line_at(file * per_file + i);
      testing::parse_into(facts, parse_plog, name(file), text);
      most = std::max(most, facts.logs.signature_hits.size());
    }
    // Not 64 per file kept until the end (5,760): folded once the list passed 4,096.
    CHECK(most < static_cast<size_t>(files) * kPlogKeptPerTemplate * 3 / 4);
    finalize_facts(facts, AnalyzeOptions{});
    std::vector<std::pair<std::string, uint64_t>> kept;
    uint64_t lines = 0;
    std::string last;
    for (const auto& h : facts.logs.signature_hits) {
      if (h.id != "device-exception/aicore-error") continue;
      kept.emplace_back(h.evidence.entry, h.evidence.line);
      lines += 1 + h.repeats.lines;
      if (h.repeats.lines) last = h.repeats.last.time.original;
    }
    CHECK(lines == static_cast<uint64_t>(files * per_file));
    CHECK(last == "2025-03-19-11:44:59.645.779");  // the latest line's time, on the last kept fact
    return kept;
  };
  auto in_order = read(false);
  REQUIRE(in_order.size() == kPlogKeptPerTemplate);
  for (size_t i = 0; i < in_order.size(); ++i) {  // the earliest: the first file's lines, then the second's
    CHECK(in_order[i].first == name(static_cast<int>(i) / per_file));
    CHECK(in_order[i].second == i % per_file + 1);
  }
  CHECK(read(true) == in_order);
}
