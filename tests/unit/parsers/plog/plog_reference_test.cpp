// Every line inside the code blocks of sections 1 and 3 of the reference excerpts has a row
// in excerpt-lines.tsv giving its expected kind; each is fed to the line parsers and the
// whole set to the file parsers, whose statistics must match counts made independently.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "model/host_facts.h"
#include "parsers/kernel/kernel_line.h"
#include "parsers/kernel/kernel_parser.h"
#include "parsers/plog/plog_line.h"
#include "parsers/plog/plog_parser.h"

#include "bundle_test_util.h"

using namespace triage;

namespace {

const std::string kDir = std::string(TEST_DATA_DIR) + "/fixtures/reference/";

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::vector<std::string> lines;
  std::string l;
  while (std::getline(in, l)) lines.push_back(l);
  return lines;
}

struct CodeLine {
  size_t number;
  std::string section, text;
};

// Lines inside ``` blocks under "### 1.x" and "### 3.x" headings.
std::vector<CodeLine> code_lines() {
  auto lines = read_lines(kDir + "real-log-excerpts.md");
  std::vector<CodeLine> out;
  bool in_section = false, in_block = false;
  std::string section;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l.rfind("## ", 0) == 0 || l.rfind("### ", 0) == 0) {
      in_section = l.rfind("### 1.", 0) == 0 || l.rfind("### 3.", 0) == 0;
      if (in_section) section = l.substr(4, l.find(' ', 4) - 4);
      continue;
    }
    if (!in_section) continue;
    if (l.rfind("```", 0) == 0) {
      in_block = !in_block;
      continue;
    }
    if (in_block) out.push_back({i + 1, section, l});
  }
  return out;
}

struct Row {
  std::string section, expected, prefix, note;
};

std::map<size_t, Row> table() {
  std::map<size_t, Row> rows;
  bool header = true;
  for (const auto& l : read_lines(kDir + "excerpt-lines.tsv")) {
    if (l.empty() || l[0] == '#') continue;
    if (header) {
      header = false;
      REQUIRE(l == "line\tsection\texpected\tprefix\tnote");
      continue;
    }
    std::vector<std::string> f;
    std::stringstream ss(l);
    std::string x;
    while (std::getline(ss, x, '\t')) f.push_back(x);
    while (f.size() < 5) f.emplace_back();
    rows[std::stoul(f[0])] = Row{f[1], f[2], f[3], f[4]};
  }
  return rows;
}

// The kind the parsers give one line, in the table's words.
std::pair<std::string, std::string> classify(const std::string& text) {
  PlogLine p;
  switch (parse_plog_line(text, p)) {
    case PlogResult::parsed:
      return {"plog/" + std::string(to_string(p.shape)), std::string(to_string(p.prefix_style))};
    case PlogResult::malformed: return {"malformed", "-"};
    case PlogResult::not_plog: break;
  }
  KernelLine k;
  switch (parse_kernel_line(text, k)) {
    case KernelResult::parsed:
      return {"kernel/" + std::string(to_string(k.shape)), k.prefix.empty() ? "none" : "grep-n"};
    case KernelResult::malformed: return {"malformed", "-"};
    case KernelResult::not_kernel: break;
  }
  return {"not_log", "-"};
}

}  // namespace

TEST_CASE("reference excerpts: every code line of sections 1 and 3 is in the table", "[plog_reference]") {
  auto lines = code_lines();
  auto rows = table();
  REQUIRE(lines.size() > 300);
  CHECK(rows.size() == lines.size());
  for (const auto& cl : lines) {
    INFO("line " << cl.number << ": " << cl.text);
    auto it = rows.find(cl.number);
    REQUIRE(it != rows.end());
    CHECK(it->second.section == cl.section);
  }
}

TEST_CASE("reference excerpts: each line is classified as the table says", "[plog_reference]") {
  auto rows = table();
  size_t compared = 0, plog = 0, kernel = 0;
  for (const auto& cl : code_lines()) {
    const Row& row = rows.at(cl.number);
    if (row.expected == "excluded") continue;
    auto [kind, prefix] = classify(cl.text);
    INFO("line " << cl.number << " (" << cl.section << "): " << cl.text);
    CHECK(kind == row.expected);
    if (row.expected.rfind("plog/", 0) == 0 || row.expected.rfind("kernel/", 0) == 0)
      CHECK(prefix == row.prefix);
    ++compared;
    plog += row.expected.rfind("plog/", 0) == 0;
    kernel += row.expected.rfind("kernel/", 0) == 0;
  }
  CHECK(compared > 300);
  CHECK(plog > 140);
  CHECK(kernel > 40);
}

TEST_CASE("reference excerpts: file parsers count every line as the table does", "[plog_reference]") {
  auto rows = table();
  std::string section1, section3;
  size_t s1_plog = 0, s1_malformed = 0, s3_kernel_raw = 0;
  for (const auto& cl : code_lines()) {
    const Row& row = rows.at(cl.number);
    if (row.expected == "excluded") continue;
    std::string& dst = cl.section[0] == '1' ? section1 : section3;
    dst += cl.text;
    dst += '\n';
    if (cl.section[0] == '1') {
      s1_plog += row.expected.rfind("plog/", 0) == 0;
      s1_malformed += row.expected == "malformed";
    } else {
      s3_kernel_raw += row.expected == "kernel/dmesg_raw";
    }
  }
  // Independent count: newlines in the fed text.
  auto newlines = [](const std::string& s) {
    return static_cast<uint64_t>(std::count(s.begin(), s.end(), '\n'));
  };
  {
    BundleFacts facts;
    ParseStats stats = testing::parse_into(facts, parse_plog,
                                           "logs/host/root/ascend/log/debug/plog/plog-1_20250101000000000.log", section1);
    CHECK(stats.lines == newlines(section1));
    CHECK(stats.parsed == s1_plog);
    CHECK(stats.malformed == s1_malformed);
    CHECK(stats.parsed + stats.malformed + stats.unrecognised == stats.lines);
    CHECK(stats.bytes == section1.size());
    // Section 1 holds real error codes and signatures: facts are kept.
    CHECK(facts.logs.error_codes.size() > 10);
    CHECK(facts.logs.signature_hits.size() > 5);
  }
  {
    BundleFacts facts;
    ParseStats stats = testing::parse_into(facts, parse_dmesg, "kernel/dmesg.txt", section3);
    CHECK(stats.lines == newlines(section3));
    CHECK(stats.parsed + stats.malformed + stats.unrecognised == stats.lines);
    // dmesg lines (and grep-prefixed kbox lines) parse; the rest is counted, not dropped.
    CHECK(stats.parsed >= s3_kernel_raw);
    size_t ascend = 0;
    for (const auto& ev : facts.logs.kernel_events) ascend += ev.ascend.has_value();
    CHECK(ascend == 10);  // the [ascend] printk lines of 3.1 and 3.2
  }
}
