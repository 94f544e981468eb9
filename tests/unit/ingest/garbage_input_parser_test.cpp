// Every base parser on random bytes and on every prefix of real fixtures: no crash, and
// every line accounted for (parsed + unrecognised + malformed = lines) in the line-based
// formats.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "model_test_support.h"
#include "parsers/common/text_file.h"

using namespace triage;
namespace fs = std::filesystem;

namespace {

struct Target {
  SourceKind kind;
  const char* path;
  bool line_based;  // stats count lines, not NUL-separated records
};

const Target kTargets[] = {
    {SourceKind::manifest_json, "manifest.json", true},
    {SourceKind::manifest_items_jsonl, "manifest.items.jsonl", true},
    {SourceKind::uname, "system/uname.txt", true},
    {SourceKind::os_release, "system/os-release", true},
    {SourceKind::kernel_cmdline, "system/cmdline", true},
    {SourceKind::time_txt, "system/time.txt", true},
    {SourceKind::localtime_tzif, "system/localtime.tzif", true},
    {SourceKind::boot_txt, "system/boot.txt", true},
    {SourceKind::proc_environ, "processes/4242/environ", false},
    {SourceKind::proc_cmdline, "processes/4242/cmdline", false},
    {SourceKind::proc_tz_txt, "processes/4242/tz.txt", true},
    {SourceKind::proc_stat, "processes/4242/stat", true},
    {SourceKind::proc_fd_tsv, "processes/4242/fd.tsv", true},
};

void check_accounting(const Target& t, const std::string& data) {
  BundleFacts facts;
  ParseStats s = test::run_kind(t.kind, t.path, data, facts);
  INFO(t.path << " on " << data.size() << " bytes");
  REQUIRE(s.lines == count_lines(data));
  if (t.line_based) CHECK(s.parsed + s.unrecognised + s.malformed == s.lines);
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("base parsers on random bytes", "[robustness]") {
  std::mt19937 rng(20260301);
  const std::string alphabet = std::string("ab=\t\n\r\\\"{}[]:,()0123456789 -_/.TZif\0", 37);
  for (int round = 0; round < 300; ++round) {
    std::string data(rng() % 400, '\0');
    bool binary = round % 3 == 0;
    for (char& c : data)
      c = binary ? static_cast<char>(rng() & 0xff) : alphabet[rng() % alphabet.size()];
    for (const auto& t : kTargets) check_accounting(t, data);
  }
}

TEST_CASE("base parsers on every prefix of the summary bundle's files", "[robustness]") {
  const fs::path root = fs::path(TEST_DATA_DIR) / "data" / "summary-bundle";
  for (const auto& t : kTargets) {
    std::string data = read_file(root / t.path);
    REQUIRE(!data.empty());
    size_t step = data.size() > 3000 ? 37 : 1;
    for (size_t n = 0; n <= data.size(); n += step) check_accounting(t, data.substr(0, n));
  }
}

TEST_CASE("base parsers on mutated copies of the summary bundle's files", "[robustness]") {
  const fs::path root = fs::path(TEST_DATA_DIR) / "data" / "summary-bundle";
  std::mt19937 rng(4242);
  const char interesting[] = {'\0', '\n', '\t', '\\', '"', '{', '}', '[', ']', ')', '=', 'u', '\xff'};
  for (const auto& t : kTargets) {
    const std::string original = read_file(root / t.path);
    for (int round = 0; round < 200; ++round) {
      std::string data = original;
      for (int k = 0; k < 1 + round % 4; ++k)
        data[rng() % data.size()] = round % 2 ? interesting[rng() % sizeof interesting]
                                              : static_cast<char>(rng() & 0xff);
      check_accounting(t, data);
    }
  }
}

TEST_CASE("small files beyond the read cap: kept whole lines, the rest counted", "[robustness]") {
  const std::string data = "aaaa\nbbbb\ncccc\ndddd";
  for (size_t cap : {size_t{10}, size_t{7}, size_t{3}}) {
    BundleFacts facts;
    EntryInfo entry;
    entry.path = "system/uname.txt";
    ParseStats stats;
    AnalyzeOptions options;
    ParseContext ctx{entry, facts, stats, options};
    StringSource src(data);
    std::string text = read_small_entry(ctx, src, cap);
    INFO("cap " << cap);
    CHECK(stats.lines == 4);
    CHECK(stats.bytes == data.size());
    CHECK(text == (cap == 10 ? "aaaa\nbbbb\n" : cap == 7 ? "aaaa\n" : ""));
    CHECK(stats.malformed == 4 - count_lines(text));
    REQUIRE(stats.samples_of_malformed.size() == 1);
    CHECK(stats.samples_of_malformed[0].line == count_lines(text) + 1);
  }
}
