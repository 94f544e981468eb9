// The brief report (the ticket reply): "In short" in at most five lines of 100 columns, one
// evidence line per finding behind the leading hypothesis with its path inside the bundle,
// at most five, bundle text escaped, the counts last.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "correlator/correlate.h"
#include "ingest/load.h"
#include "reports/render.h"
#include "text_report_support.h"

using namespace triage;
using namespace report_test;

namespace {

std::string render(const Report& r, const EvidenceSet& set = {}, std::string note = {}) {
  RenderOptions opt;
  opt.redaction_note = std::move(note);
  std::ostringstream out;
  render_brief(r, set, opt, out);
  return out.str();
}

// The lines before "Evidence": the reply (and a redaction note).
std::vector<std::string> reply_part(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& l : lines(text)) {
    if (l.rfind("Evidence:", 0) == 0) break;
    out.push_back(l);
  }
  return out;
}

// The "  path:line  excerpt" lines under "Evidence:".
std::vector<std::string> evidence_part(const std::string& text) {
  std::vector<std::string> all = lines(text), out;
  size_t i = 0;
  while (i < all.size() && all[i].rfind("Evidence:", 0) != 0) ++i;
  for (++i; i < all.size() && all[i].rfind("  ", 0) == 0; ++i) out.push_back(all[i]);
  return out;
}

size_t widest(const std::string& text) {
  size_t w = 0;
  for (const auto& l : lines(text)) w = std::max(w, display_width(l));
  return w;
}

// One bundle read from `input` as a directory: the inventory names each entry's display
// form ("<input>/<path>") and its path inside the bundle.
BundleFacts bundle_at(std::string input, const std::vector<std::string>& paths, char sep = '/') {
  BundleFacts b;
  b.input = input;
  for (const auto& p : paths) {
    InventoryEntry e;
    e.info.input = input;
    e.info.path = p;
    e.info.display = input + sep + p;
    b.inventory.entries.push_back(e);
  }
  return b;
}

Finding cited(std::string id, Severity sev, std::string entry, uint64_t line, std::string excerpt) {
  Finding f = finding(std::move(id), sev, "a title");
  f.evidence = {ev(std::move(entry), line, std::move(excerpt))};
  return f;
}

// A reply of many sentences, one of them with a command holding ". " in a code span.
const std::string kLongReply =
    "Most likely cause on ascend-node07: Host driver installation residue or mismatch (kernel modules, "
    "driver user space) (medium confidence). What points to it: two Ascend module sets for one kernel: "
    "residue of an earlier install; the dependency chain takes modules from more than one set. It also "
    "accounts for what the job showed: Stream 47 of pid 48213 made no progress for 1080 s (7 reports); "
    "and more. Next check: Compare the file each module resolves to (`for m in drv_pcie_host; do echo "
    "\"$m. Done\"; modinfo -n $m; done; ls -l /lib/modules/$(uname -r)/updates/dkms/`). Not proven: That "
    "the stale or mixed module set caused every timeout. Equal vermagic does not clear it.";

}  // namespace

TEST_CASE("brief report: In short is plain text in at most five lines of 100 columns", "[brief-report]") {
  Report r = sample_report();
  r.verdict.reply = kLongReply;
  std::string text = render(r);
  INFO(text);
  std::vector<std::string> reply = reply_part(text);
  CHECK(reply.size() <= 5);
  CHECK(reply.size() >= 3);  // whole sentences while they fit, not one
  CHECK(reply.front().rfind("Most likely cause on ascend-node07: ", 0) == 0);
  CHECK(reply.back().back() == '.');  // ends on a whole sentence
  CHECK(widest(text) <= 100);
  CHECK(text.find('`') == std::string::npos);
  CHECK(text.find('\x1b') == std::string::npos);  // no styling

  // A first sentence longer than five lines is cut on the fifth, with "...".
  std::string words;
  for (int i = 0; i < 120; ++i) words += fmt::format("word{} ", i);
  // A token wider than a line (a path) is split too: no line passes 100 columns.
  r.verdict.reply = "Most likely cause: `/very/long/" + std::string(150, 'x') + "` and " + words + "more.";
  text = render(r);
  reply = reply_part(text);
  CHECK(reply.size() == 5);
  CHECK(reply.back().size() >= 3);
  CHECK(reply.back().substr(reply.back().size() - 3) == "...");
  CHECK(widest(text) <= 100);
}

TEST_CASE("brief report: evidence paths are inside the bundle, at most five lines", "[brief-report]") {
  Report r;
  r.verdict.reply = "Most likely cause: something.";
  Hypothesis top;
  top.id = "host-driver-installation";
  std::vector<std::string> paths;
  for (size_t i = 0; i < 7; ++i) {
    std::string path = fmt::format("logs/host/root/ascend/log/debug/plog/plog-{}.log", 100 + i);
    paths.push_back(path);
    r.findings.push_back(cited(fmt::format("f{}", i), Severity::error, "/abs/samples/b/" + path, 10 + i,
                               "line of finding " + std::to_string(i) + " " + std::string(200, 'y')));
    top.supporting.push_back({fmt::format("f{}", i), i, ""});
  }
  r.findings.push_back(finding("no-evidence", Severity::critical, "cites nothing"));
  top.supporting.push_back({"no-evidence", 7, ""});
  r.verdict.ranked = {top};
  EvidenceSet set;
  set.bundles.push_back(bundle_at("/abs/samples/b", paths));
  std::string text = render(r, set);
  INFO(text);
  std::vector<std::string> cited_lines = evidence_part(text);
  REQUIRE(cited_lines.size() == 5);
  for (size_t i = 0; i < cited_lines.size(); ++i) {
    CHECK(cited_lines[i].rfind(fmt::format("  {}:{}  line of finding {} y", paths[i], 10 + i, i), 0) == 0);
    CHECK(cited_lines[i].substr(cited_lines[i].size() - 3) == "...");  // cut to fit
  }
  CHECK(text.find("/abs") == std::string::npos);
  CHECK(widest(text) <= 100);
  CHECK(lines(text).back() == "8 finding(s), 8 at warning or above; run with --format text for all.");

  // With several inputs, the input's name leads (an archive's with '!'); a loose file is its name.
  set.bundles.push_back(bundle_at("/abs/t.tar.zst", {"logs/x.log"}, '!'));
  r.findings[0].evidence[0].entry = "/abs/t.tar.zst!logs/x.log";
  text = render(r, set);
  CHECK(evidence_part(text).front().rfind("  t.tar.zst!logs/x.log:10  ", 0) == 0);
  CHECK(evidence_part(text)[1].rfind("  b/" + paths[1] + ":11  ", 0) == 0);
  EvidenceSet loose;
  loose.bundles.push_back(bundle_at("/tmp/ticket/log1.txt", {}));
  InventoryEntry file;
  file.info.path = "log1.txt";
  file.info.display = "/tmp/ticket/log1.txt";
  loose.bundles[0].inventory.entries.push_back(file);
  r.findings[0].evidence[0].entry = "/tmp/ticket/log1.txt";
  CHECK(evidence_part(render(r, loose)).front().rfind("  log1.txt:10  ", 0) == 0);
}

TEST_CASE("brief report: without supporting findings, those at warning or above, most severe first",
          "[brief-report]") {
  Report r;
  r.verdict.reply = "The evidence does not name a cause yet.";
  Hypothesis top;
  top.id = "insufficient-evidence";
  r.verdict.ranked = {top};
  r.findings = {cited("w", Severity::warning, "w.log", 1, "warned"), cited("i", Severity::info, "i.log", 2, "noted"),
                cited("c", Severity::critical, "c.log", 3, "critical")};
  std::string text = render(r);
  INFO(text);
  CHECK(evidence_part(text) == std::vector<std::string>{"  c.log:3  critical", "  w.log:1  warned"});
  CHECK(lines(text).back() == "3 finding(s), 2 at warning or above; run with --format text for all.");
}

TEST_CASE("brief report: a control byte from a bundle is escaped, never printed", "[brief-report]") {
  Report r = sample_report();
  r.verdict.reply = "Most likely cause: \x1b]0;title\x07 a stall.";
  // sample_report's leading hypothesis rests on F2; its excerpt carries the controls.
  r.findings[1].evidence[0].excerpt = "osc \x1b]52;c;ZXZpbA==\x07 bidi \u202etxt.exe c1 \u009b31m";
  r.findings[1].evidence[0].entry = "modules/tree\x1b[2J.tsv";
  std::string text = render(r);
  INFO(text);
  CHECK(text.find("\\x1b]52;c;ZXZpbA==\\x07") != std::string::npos);
  CHECK(text.find("\\u{202E}txt.exe") != std::string::npos);
  CHECK(text.find("\\u{009B}31m") != std::string::npos);
  CHECK(text.find("tree\\x1b[2J.tsv:19") != std::string::npos);
  CHECK(text.find("\\x1b]0;title\\x07") != std::string::npos);
  auto control = [](char c) { return static_cast<unsigned char>(c) < 0x20 && c != '\n'; };
  CHECK(std::count_if(text.begin(), text.end(), control) == 0);
  CHECK(text.find("\u202e") == std::string::npos);
}

TEST_CASE("brief report: healthy, empty, and redacted", "[brief-report]") {
  Report healthy;
  healthy.verdict.reply = "No fault found: nothing in what was read is at warning or above.";
  Hypothesis top;
  top.id = "insufficient-evidence";
  healthy.verdict.ranked = {top};
  healthy.findings = {cited("chip-scope/product", Severity::info, "system/lspci.txt", 4, "Huawei 910B")};
  CHECK(render(healthy) ==
        "No fault found: nothing in what was read is at warning or above.\n"
        "Evidence: none in the input\n"
        "1 finding(s), 0 at warning or above; run with --format text for all.\n");
  CHECK(render(Report{}) ==
        "No verdict: no hypothesis was ranked.\n"
        "Evidence: none in the input\n"
        "0 finding(s), 0 at warning or above; run with --format text for all.\n");
  std::string red = render(healthy, {}, "Redacted for a public thread: 1 host name replaced.");
  CHECK(red.rfind("Redacted for a public thread: 1 host name replaced.\n\nNo fault found: ", 0) == 0);
}

TEST_CASE("brief report: end to end on a sample read by its absolute path", "[brief-report][samples]") {
  AnalyzeOptions options;
  std::string sample = std::string(SAMPLES_DIR) + "/incident-910b-before-reboot";
  REQUIRE(sample.front() == '/');
  LoadResult loaded = load_evidence({sample}, options);
  REQUIRE(loaded.errors.empty());
  Report report = correlate(loaded.evidence, options);
  std::string text = render(report, loaded.evidence);
  INFO(text);
  CHECK(reply_part(text).size() <= 5);
  CHECK(reply_part(text).front().rfind("Most likely cause: Host driver installation", 0) == 0);
  CHECK(text.find("\nWhere: host ascend-node07, ") != std::string::npos);  // the reply's own lines, kept whole
  CHECK(text.find("\nNext: ") != std::string::npos);
  std::vector<std::string> cited_lines = evidence_part(text);
  CHECK(!cited_lines.empty());
  CHECK(cited_lines.size() <= 5);
  for (const auto& l : cited_lines) CHECK(l.rfind("  /", 0) != 0);
  CHECK(text.find(sample) == std::string::npos);
  CHECK(text.find("  modules/sysfs.tsv:") != std::string::npos);
  CHECK(widest(text) <= 100);
  auto serious = std::count_if(report.findings.begin(), report.findings.end(),
                               [](const Finding& f) { return f.severity >= Severity::warning; });
  CHECK(lines(text).back() == fmt::format("{} finding(s), {} at warning or above; run with --format text for all.",
                                          report.findings.size(), serious));
}
