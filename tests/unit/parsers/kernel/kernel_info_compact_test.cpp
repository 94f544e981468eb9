// Info-level kernel lines kept compact (model/facts_logs.h KernelInfoLine): the reports must
// not change, and memory must not grow with the journal.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "bundle_test_util.h"
#include "correlator/correlate.h"
#include "ingest/load.h"
#include "model/packed_texts.h"
#include "reports/render.h"

using namespace triage;
using namespace triage::testing;

namespace {

struct Analyzed {
  std::string json;
  size_t kernel_events = 0;
  size_t skew_pairs = 0;
};

Analyzed analyze(const std::string& sample, uint64_t full_info_lines) {
  AnalyzeOptions options;
  options.full_info_kernel_lines = full_info_lines;
  LoadResult loaded = load_evidence({std::string(SAMPLES_DIR) + "/" + sample}, options);
  Report report = correlate(loaded.evidence, options);
  std::ostringstream out;
  render_json(report, loaded.evidence, RenderOptions{}, out);
  Analyzed a;
  a.json = out.str();
  for (const auto& b : loaded.evidence.bundles) a.kernel_events += b.logs.kernel_events.size();
  for (const auto& s : report.timeline.skews) a.skew_pairs += s.pairs;
  return a;
}

}  // namespace

TEST_CASE("kernel info lines: every sample's JSON report is the same kept whole or compact",
          "[kernel][memory]") {
  size_t compacted = 0, paired = 0;
  for (const char* sample : {"incident-910b-before-reboot", "incident-910b-after-reboot",
                             "healthy-first-step-compile", "incident-loose-files"}) {
    INFO(sample);
    Analyzed whole = analyze(sample, UINT64_MAX);
    Analyzed compact = analyze(sample, 0);
    CHECK(compact.json == whole.json);
    CHECK(compact.skew_pairs == whole.skew_pairs);
    // Unpaired info lines are dropped by finalize: fewer events, same report.
    if (compact.kernel_events < whole.kernel_events) ++compacted;
    paired += compact.skew_pairs;
  }
  CHECK(compacted >= 2);  // the compact path ran on the incident samples' journals
  CHECK(paired > 0);      // and paired journal lines with dmesg (before-reboot: an info line)
}

TEST_CASE("kernel info lines: an archive storing the sample backwards gives the same report either way",
          "[kernel][memory]") {
  // Members in reverse walk order: fact_order must merge events and compact lines by entry.
  std::string root = std::string(SAMPLES_DIR) + "/incident-910b-before-reboot";
  std::vector<Member> members;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.is_regular_file())
      members.push_back({std::filesystem::relative(e.path(), root).string(), read_file(e.path().string())});
  std::sort(members.begin(), members.end(), [](const Member& a, const Member& b) { return a.name > b.name; });
  TempDir tmp;
  std::string archive = tmp / "bundle.tar";
  write_archive(archive, members, ArchiveFormat::tar, Filter::none);
  auto json = [&](uint64_t full) {
    AnalyzeOptions options;
    options.full_info_kernel_lines = full;
    LoadResult loaded = load_evidence({archive}, options);
    Report report = correlate(loaded.evidence, options);
    std::ostringstream out;
    render_json(report, loaded.evidence, RenderOptions{}, out);
    return std::make_pair(out.str(), report.timeline.skews.size());
  };
  auto whole = json(UINT64_MAX);
  auto compact = json(0);
  CHECK(compact.first == whole.first);
  CHECK(whole.second > 0);
}

TEST_CASE("packed texts: every text comes back as added, in less memory", "[kernel][memory]") {
  PackedTexts texts;
  std::vector<std::string> added;
  for (int i = 0; i < 5000; ++i) {
    added.push_back(fmt::format("{{\"__REALTIME_TIMESTAMP\":\"{}\",\"MESSAGE\":\"[ascend] [devmm] line {}\"}}",
                                1780750400466383 + i * 997, i));
    REQUIRE(texts.add(added.back()) == static_cast<uint32_t>(i));
  }
  texts.add("");
  size_t raw = 0;
  for (const auto& s : added) raw += s.size();
  CHECK(texts.size() == 5001);
  CHECK(texts.packed_bytes() < raw / 2);
  for (int i : {0, 1, 777, 2500, 4998, 4999}) CHECK(texts.get(static_cast<uint32_t>(i)) == added[static_cast<size_t>(i)]);
  CHECK(texts.get(3) == added[3]);  // back to an earlier block
  CHECK(texts.get(5000).empty());
  CHECK(texts.get(5001).empty());   // no such id
}

namespace {

// A bundle whose kernel journal holds `lines` Ascend printks at info level, as a busy host
// writes for months (the driver's process-release lines).
std::string journal_bundle(const TempDir& tmp, const std::string& name, int lines) {
  std::string dir = tmp / name;
  write_file(dir + "/kernel/journal-b0.jsonl", "");
  std::ofstream out(dir + "/kernel/journal-b0.jsonl", std::ios::binary);
  for (int i = 0; i < lines; ++i)
    out << fmt::format(
        "{{\"__CURSOR\":\"s=a6cecc1b78e510617311d8a3c2ce6f44;i={:x};b=a6cecc1b78e510617311d8a3c2ce6f44\","
        "\"__REALTIME_TIMESTAMP\":\"{}\",\"_BOOT_ID\":\"a6cecc1b78e510617311d8a3c2ce6f44\","
        "\"_SOURCE_MONOTONIC_TIMESTAMP\":\"{}\",\"_TRANSPORT\":\"kernel\",\"PRIORITY\":\"6\","
        "\"MESSAGE\":\"[ascend] [devmm] [devmm_destory_all_heap_by_proc 1222] <kworker/1:1:{},{}> "
        "Page statistics. (hostpid={}; alloc_page_cnt={}; free_page_cnt={})\",\"_HOSTNAME\":\"node01\"}}\n",
        i, 1780750400466383 + int64_t{i} * 53113, 39498465883 + int64_t{i} * 53113, 2000 + i % 300,
        2000 + i % 300, 20000 + i % 5000, i % 4096, i % 4096);
  return dir;
}

long peak_rss_kib(const std::string& dir) {
  CliRun run = run_cli({"analyze", "--format", "json", dir});
  INFO(run.err);
  REQUIRE(run.exit_code <= 1);
  return run.max_rss_kib;
}

}  // namespace

// Hidden from the normal run ([.]); tests/cmake/memory.cmake runs it alone (RUN_SERIAL): it
// measures the analyzer's peak memory on a journal and on one twice as long.
TEST_CASE("memory: a journal twice as long needs less than 12 MiB more", "[.][rss-growth]") {
  TempDir tmp;
  long small = peak_rss_kib(journal_bundle(tmp, "small", 60000));
  long large = peak_rss_kib(journal_bundle(tmp, "large", 120000));
  WARN("peak RSS: " << small << " KiB with 60000 journal lines, " << large << " KiB with 120000");
  CHECK(large - small < 12 * 1024);
}
