// The text report: verdict first, findings with evidence, wrapped by display width at 100
// columns with hanging indents, commands and paths never broken, colour only when asked.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <sstream>

#include "ingest/load.h"
#include "bundle_test_util.h"
#include "cjk_strings.h"
#include "correlator/correlate.h"
#include "reports/render.h"
#include "text_report_support.h"

using namespace triage;
using namespace report_test;

namespace {

std::string render(const Report& r, const EvidenceSet& set = {}, bool color = false, int width = 100) {
  RenderOptions opt;
  opt.color = color;
  opt.width = width;
  std::ostringstream out;
  render_text(r, set, opt, out);
  return out.str();
}

// The block of lines that starts with a line containing `head`, up to the next line that is
// not indented at least `indent` columns.
std::vector<std::string> block(const std::string& text, std::string_view head, size_t indent) {
  std::vector<std::string> all = lines(text), out;
  size_t i = 0;
  while (i < all.size() && all[i].find(head) == std::string::npos) ++i;
  if (i == all.size()) return out;
  out.push_back(all[i]);
  for (++i; i < all.size() && all[i].size() > indent && all[i].find_first_not_of(' ') >= indent; ++i)
    out.push_back(all[i]);
  return out;
}

std::string without_spaces(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\n') out += c;
  return out;
}

}  // namespace

TEST_CASE("text report: the verdict comes first, with links, next check and collect-more",
          "[text-report]") {
  std::string text = render(sample_report());
  INFO(text);
  // A verdict without a reply paragraph starts with the verdict.
  CHECK(text.rfind("Verdict\n", 0) == 0);
  CHECK(text.find("Verdict") < text.find("4 finding(s)"));
  CHECK(text.find("  1. Host driver installation residue (stale DKMS modules resident)\n") != std::string::npos);
  CHECK(text.find("     host-driver-installation - high confidence - score 7.5 - host ascend-node07\n") !=
        std::string::npos);
  CHECK(text.find("     Supported by:    F2 module-provenance/stale-dkms-links: resident build ids match the "
                  "links\n") != std::string::npos);
  CHECK(text.find("     Explains:        F1 stream-stall: the stalled stream is what the broken chain looks like\n") !=
        std::string::npos);
  CHECK(text.find("     Contradicted by: F4 probe-results/pass: basic device work passes on another device\n") !=
        std::string::npos);
  CHECK(text.find("  2. Device hardware fault\n") != std::string::npos);
  CHECK(text.find("  3. Application code\n") != std::string::npos);
  CHECK(text.find("  Also ranked: cann-wheel-mismatch (low)\n") != std::string::npos);
  CHECK(text.find("  Next check (host-driver-installation vs device-hardware):\n") != std::string::npos);
  // The command is whole on one line even though it is wider than the report.
  CHECK(text.find("     $ cat /sys/module/drv_pcie_host/srcversion; modinfo -F srcversion " +
                  std::string(kLongPath) + "\n") != std::string::npos);
  CHECK(text.find("  Collect more (the evidence is insufficient for a verdict):\n"
                  "     $ ascend-collect.sh --probes --boots 2 --add /root/work/det/train_0904.log\n") !=
        std::string::npos);
  CHECK(overlong_lines(text, 100) == "");
}

TEST_CASE("text report: findings show evidence, limits and next checks", "[text-report]") {
  std::string text = render(sample_report());
  INFO(text);
  CHECK(text.find("F1 [critical] stream-stall (high confidence) - host ascend-node07\n"
                  "   Stream 47 of pid 48213 made no progress for 18 minutes (7 samples, head unmoved)\n") !=
        std::string::npos);
  // Prose wraps at word boundaries under the value column; joined again it is the original.
  std::vector<std::string> observed = block(text, "   Observed:", 20);
  REQUIRE(observed.size() >= 2);
  std::string joined;
  for (const auto& l : observed) joined += (joined.empty() ? "" : " ") + l.substr(l.find_first_not_of(' ', 12));
  CHECK(joined == sample_report().findings[0].observed);
  for (size_t i = 1; i < observed.size(); ++i) CHECK(observed[i].find_first_not_of(' ') == 20);
  // Next checks: a command alone stays whole, prose before a command is split from it.
  CHECK(text.find("   Next checks:     - npu-smi info -t usages -i 0\n") != std::string::npos);
  CHECK(text.find("                    - " + std::string(kLongCommand) + "\n") != std::string::npos);
  CHECK(text.find("                    - Check /proc/<pid>/environ of the new run:\n"
                  "                      tr '\\0' '\\n' < /proc/<pid>/environ | grep ASCEND\n") !=
        std::string::npos);
  // Evidence: entry:line on its own line, the excerpt wrapped below it.
  CHECK(text.find("   Evidence:        " + std::string(kPlog) + ":1402\n"
                  "                      [EVENT] RUNTIME(48213,python3):") != std::string::npos);
  // A long path inside prose is never cut: it is whole on some line.
  bool path_whole = false;
  for (const auto& l : lines(text))
    path_whole |= l.find(std::string(kLongPath) + " (a link") != std::string::npos ||
                  l.find(std::string(kLongPath)) != std::string::npos;
  CHECK(path_whole);
  CHECK(overlong_lines(text, 100) == "");
}

TEST_CASE("text report: CJK prose wraps by display width, never before closing punctuation",
          "[text-report][display-width]") {
  std::string text = render(sample_report());
  std::vector<std::string> zh = block(text, "   Observed:        910B", 20);
  INFO(text);
  REQUIRE(zh.size() >= 3);
  std::string joined;
  for (size_t i = 0; i < zh.size(); ++i) {
    std::string_view l = zh[i];
    CHECK(display_width(l) <= 100);
    if (i + 1 < zh.size()) {  // greedy: the next line's first character did not fit here
      std::string_view next = zh[i + 1];
      next.remove_prefix(next.find_first_not_of(' '));
      Utf8Step c = decode_utf8(next, 0);
      size_t token = c.len;  // one wide character, or an ASCII word
      if (codepoint_width(c.cp) < 2)
        while (token < next.size() && next[token] != ' ' && static_cast<unsigned char>(next[token]) < 0x80) ++token;
      CHECK(display_width(l) + display_width(next.substr(0, token)) >= 100);
    }
    l.remove_prefix(i == 0 ? 20 : l.find_first_not_of(' '));
    for (std::string_view punct : {"，", "。", "、"}) CHECK(l.substr(0, punct.size()) != punct);
    joined += l;
  }
  CHECK(without_spaces(joined) == without_spaces(test::kZhOpening));
  // The same at 60 columns.
  std::string narrow = render(sample_report(), {}, false, 60);
  CHECK(overlong_lines(narrow, 60) == "");
  CHECK(narrow.find("Verdict\n") == 0);
}

TEST_CASE("text report: mixed ASCII and CJK at 100 columns keeps ASCII words whole",
          "[text-report][display-width]") {
  std::string out;
  text::append_wrapped(out, std::string(test::kZhMount) + " " + std::string(test::kZhCombination), "  - ", "    ",
                       100);
  INFO(out);
  for (const auto& l : lines(out)) CHECK(display_width(l) <= 100);
  // Each ASCII word (each appears once) is whole on one line: breaks fall between CJK
  // characters or at spaces, never inside set_env.sh or 2.8.0.post2.
  for (std::string_view word : {"set_env.sh", "Toolkit", "2.8.0.post2", "torch_npu"}) {
    bool whole = false;
    for (const auto& l : lines(out)) whole |= l.find(word) != std::string::npos;
    CHECK(whole);
  }
  CHECK(without_spaces(out).find(without_spaces(test::kZhMount)) != std::string::npos);
}

TEST_CASE("text report: bundle text is escaped; colour only when asked", "[text-report]") {
  std::string plain = render(sample_report());
  CHECK(plain.find('\x1b') == std::string::npos);
  CHECK(plain.find("\\x1b[31m\\xff") != std::string::npos);  // the excerpt's bytes, escaped
  std::string colored = render(sample_report(), {}, true);
  CHECK(colored.find("\x1b[1;31m[critical]\x1b[0m") != std::string::npos);
  CHECK(colored.find("\x1b[31m[error]\x1b[0m") != std::string::npos);
  CHECK(colored.find("\x1b[33m[warning]\x1b[0m") != std::string::npos);
  CHECK(colored.find("\x1b[1mVerdict\x1b[0m") != std::string::npos);
  CHECK(colored.find("\x1b[1mstream-stall\x1b[0m") != std::string::npos);
  // Colour changes nothing but the escapes: same words, same wrapping.
  CHECK(strip_ansi(colored) == plain);
}

TEST_CASE("text report: the top of the timeline, most severe rows in time order", "[text-report]") {
  std::string text = render(sample_report());
  INFO(text);
  CHECK(text.find("Timeline: 20 event(s), the 12 most severe shown (the timeline command shows all)\n") !=
        std::string::npos);
  CHECK(text.find("  2026-09-04T01:25:28Z  09:25:28+08:00  plog  critical  x7 until 2026-09-04T01:43:28Z\n"
                  "      SynchronizeExecutedTask: report three minutes timeout! stream_id=47\n") != std::string::npos);
  std::vector<std::string> rows;
  for (const auto& l : lines(text))
    if (l.rfind("  2026-09-04T", 0) == 0) rows.push_back(l.substr(2, 20));
  CHECK(rows.size() == 12);
  CHECK(std::is_sorted(rows.begin(), rows.end()));
  CHECK(text.find("Timeline") > text.find("4 finding(s)"));
  Report no_timeline = sample_report();
  no_timeline.timeline = {};
  CHECK(render(no_timeline).find("Timeline") == std::string::npos);
}

TEST_CASE("text report: an empty report says there is no verdict", "[text-report]") {
  std::string text = render(Report{});
  CHECK(text == "Verdict\n  No verdict: no hypothesis was ranked (no analysis ran on this evidence).\n\n"
                "0 finding(s)\n");
}

TEST_CASE("text report: end to end on incident-910b-before-reboot", "[text-report][samples]") {
  AnalyzeOptions options;
  LoadResult loaded = load_evidence({std::string(SAMPLES_DIR) + "/incident-910b-before-reboot"}, options);
  REQUIRE(loaded.errors.empty());
  Report report = correlate(loaded.evidence, options);
  REQUIRE(!report.findings.empty());
  REQUIRE(!report.verdict.ranked.empty());
  std::string text = render(report, loaded.evidence);
  INFO(text.substr(0, 4000));
  // Structure, not the verdict's content (the verdict rules are built elsewhere).
  CHECK(text.rfind("In short\n  Most likely cause: ", 0) == 0);  // the paragraph to paste into a reply
  CHECK(text.find("\n\nVerdict\n") != std::string::npos);
  CHECK(text.find("  1. ") != std::string::npos);
  size_t bundle = text.find("\nBundle ");
  size_t findings = text.find(fmt::format("\n{} finding(s)\n", report.findings.size()));
  REQUIRE(bundle != std::string::npos);
  REQUIRE(findings != std::string::npos);
  CHECK(bundle < findings);
  CHECK(text.find("  Host:       ascend-node07") != std::string::npos);
  // Every finding has its header, and every piece of evidence its entry:line.
  for (size_t i = 0; i < report.findings.size(); ++i) {
    const Finding& f = report.findings[i];
    CHECK(text.find(fmt::format("\nF{} [{}] {} ", i + 1, to_string(f.severity), f.id)) != std::string::npos);
    for (size_t k = 0; k < f.evidence.size() && k < 8; ++k) {
      const EvidenceRef& e = f.evidence[k];
      CHECK(text.find(printable_utf8(e.line ? fmt::format("{}:{}", e.entry, e.line) : e.entry) + "\n") !=
            std::string::npos);
    }
    for (const auto& e : f.same_failure)  // lines of the same failure: shown under "Explains:"
      CHECK(text.find(printable_utf8(fmt::format("{}:{}", e.entry, e.line)) + "\n") != std::string::npos);
  }
  CHECK(text.find("   Explains:        ") != std::string::npos);
  CHECK(overlong_lines(text, 100) == "");
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(strip_ansi(render(report, loaded.evidence, true)) == text);
}

TEST_CASE("text report: --color always colours, --color never does not", "[text-report][cli]") {
  std::string sample = std::string(SAMPLES_DIR) + "/incident-910b-before-reboot";
  triage::testing::CliRun always = triage::testing::run_cli({"--color", "always", "analyze", sample});
  triage::testing::CliRun never = triage::testing::run_cli({"--color", "never", "analyze", sample});
  INFO(always.err << never.err);
  CHECK(always.exit_code == 1);
  CHECK(never.exit_code == 1);
  CHECK(always.out.find("\x1b[1mIn short\x1b[0m") == 0);
  CHECK(always.out.find("\x1b[1mVerdict\x1b[0m") != std::string::npos);
  CHECK(never.out.find('\x1b') == std::string::npos);
  CHECK(strip_ansi(always.out) == never.out);
  // auto: the test's pipe is no terminal
  CHECK(triage::testing::run_cli({"analyze", sample}).out == never.out);
}
