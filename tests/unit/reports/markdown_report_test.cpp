// The Markdown report: verdict, findings, evidence as quoted excerpts under `entry:line`,
// timeline table; bundle text can never change the document's structure.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <sstream>

#include "ingest/load.h"
#include "correlator/correlate.h"
#include "reports/evidence_path.h"
#include "reports/markdown_escape.h"
#include "reports/render.h"
#include "text_report_support.h"

using namespace triage;
using namespace report_test;

namespace {

std::string render(const Report& r, const EvidenceSet& set = {}, bool full = false) {
  RenderOptions opt;
  opt.full = full;
  std::ostringstream out;
  render_markdown(r, set, opt, out);
  return out.str();
}

// A bundle line that tries everything: a fence, a heading, table pipes, HTML, a link.
constexpr std::string_view kHostile =
    "# not a heading | col | ```` fence `code` <script>alert(1)</script> [x](javascript:alert(1)) *em*";

size_t unescaped_pipes(std::string_view line) {
  size_t n = 0;
  for (size_t i = 0; i < line.size(); ++i) n += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
  return n;
}

struct Structure {
  std::vector<std::string> headings;    // lines starting with '#', outside code blocks
  std::vector<std::string> code_lines;  // lines inside fenced code blocks (prefix removed)
  std::vector<std::string> prose;       // every other line
  bool balanced = true;                 // every fence closed
};

// A small reading of the document's block structure (CommonMark backtick fences, inside a
// block quote or not), enough to tell whether bundle text opened or closed anything.
Structure read_structure(const std::string& doc) {
  Structure s;
  size_t fence = 0;  // length of the open fence, 0 = none
  for (const auto& raw : lines(doc)) {
    std::string_view l = raw;
    if (l.rfind("> ", 0) == 0) l.remove_prefix(2);
    size_t ticks = 0;
    while (ticks < l.size() && l[ticks] == '`') ++ticks;
    if (fence) {
      if (ticks >= fence && l.find_first_not_of(' ', ticks) == std::string_view::npos) fence = 0;
      else s.code_lines.emplace_back(l);
      continue;
    }
    if (ticks >= 3 && l.find('`', ticks) == std::string_view::npos) {
      fence = ticks;
      continue;
    }
    if (!l.empty() && l[0] == '#') s.headings.emplace_back(l);
    else s.prose.emplace_back(raw);
  }
  s.balanced = fence == 0;
  return s;
}

}  // namespace

TEST_CASE("markdown escape: prose, code spans and fences", "[markdown-report]") {
  CHECK(md::text("# heading") == "\\# heading");
  CHECK(md::text("- item") == "\\- item");
  CHECK(md::text("12. item") == "12\\. item");
  CHECK(md::text("a-b 1. c") == "a-b 1. c");  // only at the start
  CHECK(md::text("<script>a|b</script>") == "\\<script\\>a\\|b\\</script\\>");
  CHECK(md::text("[x](javascript:alert(1))") == "\\[x\\](javascript:alert(1))");
  CHECK(md::text("*a* _b_ `c` ~d~ &amp; \\") == "\\*a\\* \\_b\\_ \\`c\\` \\~d\\~ \\&amp; \\\\");
  CHECK(md::text("ctl\x1b[0m \xff") == "ctl\\\\x1b\\[0m \\\\xff");
  CHECK(md::prose("`modprobe --show-depends` chains, `a|b` and <b>") ==
        "`modprobe --show-depends` chains, `a|b` and \\<b\\>");
  CHECK(md::prose("# x `a|b`", true) == "\\# x `a\\|b`");
  CHECK(md::prose("``two`` `one` and unpaired `") == "`two` `one` and unpaired \\`");
  CHECK(md::prose("a ` b ``c`` d `") == "a ```  b ``c`` d  ```");  // pairs as CommonMark does
  CHECK(md::prose("`<script>` then *x*") == "`<script>` then \\*x\\*");  // literal inside a code span
  CHECK(md::code("modinfo -n drv_pcie_host") == "`modinfo -n drv_pcie_host`");
  CHECK(md::code("a`b") == "``a`b``");
  CHECK(md::code("`x") == "`` `x ``");
  CHECK(md::code("a``b`") == "``` a``b` ```");
  CHECK(md::code("a|b", true) == "`a\\|b`");
  CHECK(md::code("a|b") == "`a|b`");
  CHECK(md::code("") == "` `");
  CHECK(md::fenced("x ``` y", "> ") == "> ````text\n> x ``` y\n> ````\n");
  CHECK(md::fenced("plain") == "```text\nplain\n```\n");
}

TEST_CASE("markdown report: verdict, findings, evidence and timeline", "[markdown-report]") {
  std::string doc = render(sample_report(), {}, true);
  INFO(doc);
  CHECK(doc.rfind("# ascend-triage report\n\n## Verdict\n\n", 0) == 0);
  CHECK(doc.find("| 1 | `host-driver-installation` | high | `F2 module-provenance/stale-dkms-links` | - |\n") !=
        std::string::npos);
  CHECK(doc.find("| 2 | `device-hardware` | low | `F1 stream-stall` | `F4 probe-results/pass` |\n") !=
        std::string::npos);
  CHECK(doc.find("### 1. Host driver installation residue (stale DKMS modules resident)\n") != std::string::npos);
  CHECK(doc.find("- **Supported by:**\n  - F2 `module-provenance/stale-dkms-links`: resident build ids match the "
                 "links\n") != std::string::npos);
  CHECK(doc.find("### Next check (host-driver-installation vs device-hardware)\n") != std::string::npos);
  CHECK(doc.find("```sh\ncat /sys/module/drv_pcie_host/srcversion; modinfo -F srcversion ") != std::string::npos);
  CHECK(doc.find("### Collect more (the evidence is insufficient for a verdict)\n\n```sh\nascend-collect.sh "
                 "--probes --boots 2 --add /root/work/det/train_0904.log\n```\n") != std::string::npos);
  CHECK(doc.find("## Findings (4)\n") != std::string::npos);
  CHECK(doc.find("### F1 `stream-stall` (critical, high confidence)\n\n**Stream 47 of pid 48213 made no progress") !=
        std::string::npos);
  CHECK(doc.find("  - `npu-smi info -t usages -i 0`\n") != std::string::npos);
  CHECK(doc.find("  - Check /proc/\\<pid\\>/environ of the new run: `tr '\\0' '\\n' < /proc/<pid>/environ | grep "
                 "ASCEND`\n") != std::string::npos);
  CHECK(doc.find("> `" + std::string(kPlog) + ":1402`\n> ```text\n> " + std::string(kStallLine) + "\n> ```\n") !=
        std::string::npos);
  CHECK(doc.find("error code is 107020 \\x1b[31m\\xff\n") != std::string::npos);  // escaped inside the fence
  CHECK(doc.find("| 2026-09-04T01:25:28Z | 09:25:28+08:00 | plog | critical | 7 until 2026-09-04T01:43:28Z | "
                 "SynchronizeExecutedTask: report three minutes timeout\\! stream\\_id=47 | `" +
                 std::string(kPlog) + ":105` |\n") != std::string::npos);
  CHECK(doc.find("The 12 most severe of 20 events") == std::string::npos);  // Markdown shows up to 30
  Structure s = read_structure(doc);
  CHECK(s.balanced);
  for (const auto& row : s.prose)
    if (row.rfind("| 2026-", 0) == 0) CHECK(unescaped_pipes(row) == 8);
  CHECK(doc.find('\x1b') == std::string::npos);
}

TEST_CASE("markdown report: backticks, pipes and a leading # in bundle text break nothing",
          "[markdown-report]") {
  Report r = sample_report();
  Finding& f = r.findings[0];
  f.observed = std::string(kHostile);
  f.title = std::string(kHostile);
  f.evidence = {ev("logs/we`ird|name.log", 7, std::string(kHostile)), ev("# heading.log", 0, "```")};
  r.timeline.events[5].message = std::string(kHostile);
  r.timeline.events[5].evidence = ev("x|y`z.log", 3, "");
  std::string doc = render(r);
  INFO(doc);
  Structure s = read_structure(doc);
  CHECK(s.balanced);
  // The hostile line appears verbatim only inside code blocks; no heading came from it.
  size_t in_code = std::count(s.code_lines.begin(), s.code_lines.end(), std::string(kHostile));
  CHECK(in_code == 1);
  for (const auto& h : s.headings) {
    bool ours = h.rfind("# ascend-triage report", 0) == 0 || h.rfind("## ", 0) == 0 || h.rfind("### ", 0) == 0;
    CHECK(ours);
    CHECK(h.find("# not a heading") == std::string::npos);
  }
  for (const auto& p : s.prose) {
    CHECK(p.find("<script>") == std::string::npos);  // only \<script\> outside code
    for (size_t at = p.find("](javascript:"); at != std::string::npos; at = p.find("](javascript:", at + 1))
      CHECK(p[at - 1] == '\\');  // "\](": no link
  }
  CHECK(doc.find("**\\# not a heading \\| col \\| \\`\\`\\`\\` fence `code` \\<script\\>alert(1)\\</script\\> "
                 "\\[x\\](javascript:alert(1)) \\*em\\***") != std::string::npos);
  CHECK(doc.find("> ``logs/we`ird|name.log:7``\n> `````text\n> " + std::string(kHostile) + "\n> `````\n") !=
        std::string::npos);
  CHECK(doc.find("> `# heading.log`\n> ````text\n> ```\n> ````\n") != std::string::npos);
  // The timeline row still has its eight cell borders: pipes in a cell are escaped.
  bool row_found = false;
  for (const auto& p : s.prose)
    if (p.find("not a heading") != std::string::npos && p.rfind("| 2026-", 0) == 0) {
      row_found = true;
      CHECK(unescaped_pipes(p) == 8);
      CHECK(p.find("``x\\|y`z.log:3``") != std::string::npos);
    }
  CHECK(row_found);
}

TEST_CASE("markdown report: an empty report", "[markdown-report]") {
  CHECK(render(Report{}) ==
        "# ascend-triage report\n\n## Verdict\n\nNo verdict: no hypothesis was ranked (no analysis ran on this "
        "evidence).\n\n## Findings (0)\n\nNo finding.\n");
}

TEST_CASE("markdown report: end to end on incident-910b-before-reboot", "[markdown-report][samples]") {
  AnalyzeOptions options;
  LoadResult loaded = load_evidence({std::string(SAMPLES_DIR) + "/incident-910b-before-reboot"}, options);
  REQUIRE(loaded.errors.empty());
  Report report = correlate(loaded.evidence, options);
  REQUIRE(!report.findings.empty());
  std::string doc = render(report, loaded.evidence, true);  // --full: every evidence line
  INFO(doc.substr(0, 3000));
  Structure s = read_structure(doc);
  CHECK(s.balanced);
  REQUIRE(s.headings.size() >= 3);
  CHECK(s.headings[0] == "# ascend-triage report");
  CHECK(s.headings[1] == "## In short");  // the paragraph to paste into a reply
  CHECK(s.headings[2] == "## Verdict");
  size_t bundle = doc.find("\n## Bundle `");
  size_t findings = doc.find(fmt::format("\n## Findings ({})\n", report.findings.size()));
  CHECK(doc.find("\n## Verdict\n") < bundle);
  CHECK(bundle < findings);
  size_t evidence = 0;
  EvidencePaths paths(loaded.evidence);
  for (size_t i = 0; i < report.findings.size(); ++i) {
    const Finding& f = report.findings[i];
    CHECK(doc.find(fmt::format("\n### F{} {} ({}, ", i + 1, md::code(f.id), to_string(f.severity))) !=
          std::string::npos);
    for (const auto* refs : {&f.evidence, &f.same_failure})  // cited, and shown as the same failure
      for (const auto& e : *refs) {
        ++evidence;
        // Under its path inside the bundle; quoted once, named again as "(quoted under F4)".
        CHECK(doc.find("> " + md::code(paths.where(e))) != std::string::npos);
      }
  }
  CHECK(doc.find("> `samples/") == std::string::npos);
  CHECK(doc.find("(quoted under F") != std::string::npos);
  size_t quoted = 0;
  for (const auto& l : lines(doc)) quoted += l.rfind("> `", 0) == 0 && l.rfind("> ```", 0) != 0;
  CHECK(quoted == evidence);
  for (const auto& h : s.headings)
    CHECK((h.rfind("# ascend-triage report", 0) == 0 || h.rfind("## ", 0) == 0 || h.rfind("### ", 0) == 0));
}

// Issue 33: bare URLs, www. names and e-mail addresses of bundle text became links in
// GitHub, GitLab and Jira; they are broken visibly, in prose and in table cells.
TEST_CASE("markdown escape: bundle URLs, www. names and e-mail addresses do not autolink", "[markdown-report][security]") {
  CHECK(md::text("see https://evil.example/x now") == "see https\\[:\\]//evil.example/x now");
  CHECK(md::text("www.evil.example") == "www\\[.\\]evil.example");
  CHECK(md::text("mail ops@evil.example") == "mail ops\\[@\\]evil.example");
  CHECK(md::prose("cell ftp://h/f and `https://in.code` x", true) ==
        "cell ftp\\[:\\]//h/f and `https://in.code` x");
  // Near misses: no link, nothing changed beyond the usual escapes.
  CHECK(md::text("ratio 1:2 at 12:34:56, node7.www and a @ b") == "ratio 1:2 at 12:34:56, node7.www and a @ b");
}
