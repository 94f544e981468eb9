// Past --max-listed-entries (issue 33: a million members must not cost a row each), entries
// that add no fact are counted per kind; everything a report could point at stays listed.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "bundle/sha256.h"
#include "bundle_test_util.h"
#include "correlator/correlate.h"
#include "ingest/name_copies.h"
#include "reports/render.h"

using namespace triage;
using namespace triage::testing;

namespace {

std::string info_plog(int pid) {
  return fmt::format("[INFO] RUNTIME({0},python3):2026-03-02-13:52:40.000.000 [runtime.cc:1302]{0} "
                     "Init:runtime init begin, chipType=5, socVersion=Ascend910B3.\n", pid);
}

std::string plog_name(int pid) {
  return fmt::format("logs/host/root/ascend/log/debug/plog/plog-{}_20260302135240000.log", pid);
}

// 40 quiet plogs; among them one with an ERROR line, an unknown text file and a FIFO.
std::vector<Member> many_members() {
  std::vector<Member> m;
  for (int pid = 1000; pid < 1040; ++pid) m.push_back({plog_name(pid), info_plog(pid)});
  m[30].data += "[ERROR] RUNTIME(1030,python3):2026-03-02-13:52:41.000.000 [stream.cc:1050]1030 "
                "Synchronize:Stream synchronize failed, stream_id=2, retCode=0x7150050, [the model stream execute failed].\n";
  m.insert(m.begin() + 20, Member{"notes/readme.txt", "hello\nworld\n"});
  m.insert(m.begin() + 25, Member{"run/pipe", "", EntryType::fifo});
  return m;
}

std::set<std::string> finding_ids(const Report& r) {
  std::set<std::string> ids;
  for (const auto& f : r.findings) ids.insert(f.id + " " + std::to_string(f.evidence.size()));
  return ids;
}

// The members as one tar, loaded with --max-listed-entries `cap`.
LoadResult load_capped(TempDir& tmp, const std::vector<Member>& members, uint64_t cap) {
  write_archive(tmp / "m.tar", members, ArchiveFormat::tar, Filter::none);
  AnalyzeOptions capped;
  capped.limits.max_listed_entries = cap;
  return load({tmp / "m.tar"}, capped);
}

const FoldedEntries* folded_of(const BundleFacts& b, SourceKind kind, std::string_view skipped = "") {
  for (const auto& f : b.inventory.folded)
    if (f.kind == kind && f.skipped == skipped) return &f;
  return nullptr;
}

TEST_CASE("entries past --max-listed-entries that add no fact are counted, not listed", "[bundle][folding]") {
  TempDir tmp;
  write_archive(tmp / "m.tar", many_members(), ArchiveFormat::tar, Filter::none);
  AnalyzeOptions capped;
  capped.limits.max_listed_entries = 5;
  LoadResult all = load({tmp / "m.tar"});
  LoadResult folded = load({tmp / "m.tar"}, capped);
  const BundleFacts& a = all.evidence.bundles.at(0);
  const BundleFacts& b = folded.evidence.bundles.at(0);
  REQUIRE(a.inventory.entries.size() == 41);
  CHECK(a.inventory.folded.empty());

  // The first 5 are listed, and the plog with an ERROR line after them.
  REQUIRE(b.inventory.entries.size() == 6);
  CHECK(find_entry(b, plog_name(1030)));
  CHECK_FALSE(find_entry(b, plog_name(1031)));
  CHECK(b.inventory.listed_cap == 5);
  const FoldedEntries* plogs = folded_of(b, SourceKind::plog);
  REQUIRE(plogs);
  CHECK(plogs->entries == 34);
  CHECK(plogs->stats.lines == 34);
  CHECK(plogs->stats.parsed == 34);
  CHECK(plogs->samples.size() == FoldedEntries::kMaxSamples);
  CHECK(plogs->samples.front() == plog_name(1005));
  const FoldedEntries* unknown = folded_of(b, SourceKind::unknown);
  REQUIRE(unknown);
  CHECK(unknown->entries == 1);
  CHECK(unknown->stats.lines_unrecognised == 2);  // counted as not understood, as when listed
  REQUIRE(folded_of(b, SourceKind::unknown, "FIFO: not read"));
  CHECK(b.inventory.skipped.empty());
  CHECK(b.inventory.folded_count() == 36);

  // Lines and bytes add up to what the full listing has.
  auto sum = [](const BundleFacts& x) {
    uint64_t lines = 0, size = 0;
    for (const auto& e : x.inventory.entries) lines += e.stats.lines, size += e.info.size;
    for (const auto& f : x.inventory.folded) lines += f.stats.lines, size += f.size;
    return std::make_pair(lines, size);
  };
  CHECK(sum(a) == sum(b));
  // Only the quiet plogs' summaries went; the error plog's facts are all there.
  CHECK(b.logs.plog_entries.size() == 6);
  CHECK(a.logs.error_codes.size() == b.logs.error_codes.size());
  CHECK(finding_ids(correlate(all.evidence, {})) == finding_ids(correlate(folded.evidence, capped)));

  std::ostringstream text;
  Report report = correlate(folded.evidence, capped);
  render_text(report, folded.evidence, {}, text);
  CHECK_THAT(text.str(), Catch::Contains("Entries:    41 read, 1 not recognised; past --max-listed-entries 5, 36"));
  std::ostringstream json;
  render_json(report, folded.evidence, {}, json);
  CHECK_THAT(json.str(), Catch::Contains(R"("folded_entries": [)"));
  CHECK_THAT(json.str(), Catch::Contains(R"("skipped": "FIFO: not read")"));
}

TEST_CASE("folding keeps every entry a finding or the manifest names", "[bundle][folding]") {
  TempDir tmp;
  std::vector<Member> m;
  for (int pid = 1000; pid < 1010; ++pid) m.push_back({plog_name(pid), info_plog(pid)});
  std::string items;
  for (size_t i = 0; i < m.size(); ++i) {
    // plog-1008's hash disagrees; plog-1009 is not listed at all
    if (i == 9) continue;
    items += fmt::format(R"({}{{"path": "{}", "status": "ok", "bytes": {}, "sha256": "{}"}})", i ? ",\n" : "",
                         m[i].name, m[i].data.size(), sha256_hex(i == 8 ? "other" : m[i].data));
  }
  items += R"(, {"path": "logs/missing.log", "status": "ok"})";
  m.insert(m.begin(), Member{"manifest.json", R"({"format": "ascend-bundle", "format_version": 1, "items": [)" + items + "]}"});
  m.push_back({plog_name(1003), info_plog(1003)});  // stored again
  LoadResult loaded = load_capped(tmp, m, 3);
  const BundleFacts& b = loaded.evidence.bundles.at(0);
  std::vector<std::string> listed;
  for (const auto& e : b.inventory.entries) listed.push_back(e.info.display.substr(e.info.display.find('!') + 1));
  // The first 3 (sorted by path afterwards), a copy, a hash mismatch, an entry not in the manifest.
  CHECK(listed == std::vector<std::string>{plog_name(1000), plog_name(1001), plog_name(1003) + " (copy 2)",
                                           plog_name(1008), plog_name(1009), "manifest.json"});
  CHECK_THAT(find_entry(b, plog_name(1008))->manifest_note, Catch::Contains("sha256"));
  CHECK(find_entry(b, plog_name(1009))->manifest_note == "not listed in the manifest");
  // A folded entry is present for the manifest: only the truly missing item is reported.
  REQUIRE(b.inventory.manifest_notes.size() == 1);
  CHECK(b.inventory.manifest_notes[0].path == "logs/missing.log");
  const Finding* dup = find_finding(b, "input-damaged/duplicate-member");
  REQUIRE(dup);
  CHECK(*dup->find_value("count") == "1");
  REQUIRE(b.inventory.folded.size() == 1);
  CHECK(b.inventory.folded[0].entries == 6);  // 1002..1007 (1003's first copy too)
}

TEST_CASE("folded entries read before the manifest are checked for presence only", "[bundle][folding]") {
  TempDir tmp;
  std::vector<Member> m;
  for (int pid = 1000; pid < 1006; ++pid) m.push_back({plog_name(pid), info_plog(pid)});
  m.push_back({"manifest.json", fmt::format(R"({{"format": "ascend-bundle", "format_version": 1, "items": [
    {{"path": "{}", "status": "ok"}}, {{"path": "{}", "status": "ok"}}]}})", plog_name(1004), "logs/gone.log")});
  LoadResult loaded = load_capped(tmp, m, 2);
  const BundleFacts& b = loaded.evidence.bundles.at(0);
  std::vector<std::string> notes;
  for (const auto& n : b.inventory.manifest_notes) notes.push_back(n.path + ": " + n.note);
  CHECK(notes == std::vector<std::string>{
                     "(4 entries): read before the manifest and past --max-listed-entries: checked for presence only",
                     "logs/gone.log: listed as collected (status ok) but not in the input"});
}

TEST_CASE("member names stored again are counted by hash", "[bundle][folding]") {
  NameCopies copies;
  for (int i = 0; i < 5000; ++i) CHECK(copies.add(fmt::format("a/{}", i)) == 1);
  CHECK(copies.add("a/17") == 2);
  CHECK(copies.add("a/17") == 3);
  CHECK(copies.add("a/4999") == 2);
  CHECK(copies.add("a/5000") == 1);
  CHECK(name_hash("") != 0);
}

}  // namespace
