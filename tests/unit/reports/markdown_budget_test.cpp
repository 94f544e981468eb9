// The Markdown report fits a ticket (issue 38): under kMarkdownBudget characters on every
// sample and on a synthetic report of many findings, with a note of what was left out;
// --full shows every finding. Findings at info are folded into a collapsed section.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <filesystem>
#include <sstream>

#include "correlator/correlate.h"
#include "ingest/load.h"
#include "reports/markdown_escape.h"
#include "reports/render.h"
#include "test_paths.h"
#include "text_report_support.h"

using namespace triage;
using namespace report_test;
namespace fs = std::filesystem;

namespace {

std::string render(const Report& r, const EvidenceSet& set, bool full) {
  RenderOptions opt;
  opt.full = full;
  std::ostringstream out;
  render_markdown(r, set, opt, out);
  return out.str();
}

// Every sample: each directory of samples/ but the generator's, and each node of fleet-4node.
std::vector<fs::path> samples() {
  std::vector<fs::path> out;
  for (const auto& d : fs::directory_iterator(SAMPLES_DIR)) {
    if (!d.is_directory() || d.path().filename() == "tools") continue;
    out.push_back(d.path());
    if (!fs::exists(d.path() / "manifest.json"))
      for (const auto& n : fs::directory_iterator(d.path()))
        if (n.is_directory() && fs::exists(n.path() / "manifest.json")) out.push_back(n.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A plog stall line as the incident's plogs hold it, numbered.
std::string stall_line(size_t i) {
  return fmt::format(
      "[EVENT] RUNTIME(48213,python3):2026-09-04-09:25:58.614.493 [stream.cc:1402]48213 "
      "SynchronizeExecutedTask:report three minutes timeout! stream_id={}, sq_id=9, task_id=1280, sqHead=500, "
      "flip_num=0, pendingNum=781.",
      i);
}

}  // namespace

TEST_CASE("markdown budget: every sample fits a ticket; --full holds every finding", "[markdown-report][samples]") {
  auto all = samples();
  REQUIRE(all.size() >= 9);
  for (const fs::path& dir : all) {
    AnalyzeOptions options;
    LoadResult loaded = load_evidence({dir.string()}, options);
    REQUIRE(loaded.errors.empty());
    Report report = correlate(loaded.evidence, options);
    std::string doc = render(report, loaded.evidence, false);
    std::string full = render(report, loaded.evidence, true);
    INFO(dir.string() << ": " << doc.size() << " characters, --full " << full.size());
    CHECK(doc.size() < kMarkdownBudget);
    CHECK(full.size() > doc.size());
    // The note names --full whenever something was left out.
    CHECK((doc.find("`--full` shows everything") != std::string::npos) == (doc != full));
    // No evidence line names the path the input was given by.
    CHECK(doc.find("> `" + dir.string()) == std::string::npos);
    CHECK(full.find("> `" + dir.string()) == std::string::npos);
    size_t info = 0;
    for (size_t i = 0; i < report.findings.size(); ++i) {
      const Finding& f = report.findings[i];
      info += f.severity == Severity::info;
      CHECK(full.find(fmt::format("### F{} {} (", i + 1, md::code(f.id))) != std::string::npos);
      // By default a finding at info is one line inside the folded section.
      if (f.severity == Severity::info)
        CHECK(doc.find(fmt::format("- F{} {} (info, ", i + 1, md::code(f.id))) != std::string::npos);
    }
    if (info) {
      std::string summary = fmt::format("<summary>{} finding(s) at info: F", info);
      CHECK(doc.find("<details>\n" + summary) != std::string::npos);
      CHECK(full.find("<details>\n" + summary) != std::string::npos);
    }
  }
}

namespace {

// `n` findings of stalled streams, one in three at info, each citing 12 plog lines.
Report many_findings(size_t n) {
  Report r = sample_report();
  for (size_t i = 0; i < n; ++i) {
    Finding f = finding(fmt::format("stream-stall/{}", i), i % 3 ? Severity::error : Severity::info,
                        fmt::format("Stream {} of pid 48213 made no progress for 1080 s (7 reports)", i));
    f.observed = fmt::format("7 three-minute reports for pid 48213 device 0 stream {} sq 9", i);
    f.supports = "The device made no progress on this stream: the queue head did not move.";
    for (size_t e = 0; e < 12; ++e) f.evidence.push_back(ev(std::string(kPlog), 4415 + 1000 * i + e, stall_line(i)));
    r.findings.push_back(f);
  }
  return r;
}

std::string note_of(const std::string& doc) {
  REQUIRE(doc.rfind("# ascend-triage report\n\n> Shortened to fit a ticket (30000 characters): ", 0) == 0);
  return lines(doc)[2];
}

void check_whole(const std::string& doc) {  // every <details> and every fence closed
  size_t open = 0, close = 0, fences = 0;
  for (const auto& l : lines(doc)) {
    open += l == "<details>";
    close += l == "</details>";
    fences += l.rfind("> ```", 0) == 0;
  }
  CHECK(open == close);
  CHECK(fences % 2 == 0);
}

}  // namespace

TEST_CASE("markdown budget: evidence past three lines per finding is counted, --full shows it",
          "[markdown-report]") {
  Report r = many_findings(5);  // fits with the default limits
  std::string doc = render(r, {}, false);
  std::string full = render(r, {}, true);
  INFO(doc);
  CHECK(doc.size() < kMarkdownBudget);
  // Three of the five are errors (one in three is at info): 9 of their 12 lines each are not quoted.
  CHECK(doc.find("9 more line(s) not shown.") != std::string::npos);
  CHECK(full.find(" more line(s) not shown.") == std::string::npos);
  std::string note = note_of(doc);
  CHECK(note.find("27 evidence line(s)") != std::string::npos);
  CHECK(note.find("the details of 3 finding(s) at info") != std::string::npos);  // probe-results/pass and two stalls
  CHECK(note.find("5 timeline row(s)") != std::string::npos);                    // 20 events, 15 rows
  CHECK(note.find("; `--full` shows everything.") != std::string::npos);
  // The same wording is printed once: later findings say "as F..".
  CHECK(full.find("- **Supports:** as F") != std::string::npos);
  check_whole(doc);
}

TEST_CASE("markdown budget: many findings are cut to fit, with a note of what went", "[markdown-report]") {
  Report r = many_findings(400);
  std::string doc = render(r, {}, false);
  std::string full = render(r, {}, true);
  INFO(doc.substr(0, 3000));
  CHECK(doc.size() < kMarkdownBudget);
  CHECK(full.size() > 10 * kMarkdownBudget);
  std::string note = note_of(doc);
  // Past the smallest limits the report is cut after a whole finding: the findings after it
  // and the timeline are counted, and so are the findings shown in one line before it.
  CHECK(note.find(" finding(s), the timeline") != std::string::npos);
  CHECK(note.find(" finding(s) above info") != std::string::npos);
  CHECK(note.find("timeline row(s)") == std::string::npos);
  CHECK(doc.find("## Verdict\n") != std::string::npos);
  CHECK(doc.find("## Findings (404)\n") != std::string::npos);
  CHECK(doc.find("## Timeline") == std::string::npos);
  check_whole(doc);
}

TEST_CASE("markdown budget: a report that fits shows no note", "[markdown-report]") {
  Report r = sample_report();
  r.findings.pop_back();        // the info finding: nothing is folded
  r.timeline.events.resize(10);  // fewer rows than the default shows
  std::string doc = render(r, {}, false);
  CHECK(doc.find("Shortened to fit") == std::string::npos);
  CHECK(doc == render(r, {}, true));
}
