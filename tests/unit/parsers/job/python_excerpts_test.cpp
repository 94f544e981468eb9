// Every Python-side excerpt of real-log-excerpts.md (sections 1.7 and 2, copied verbatim under
// tests/fixtures/reference/) is parsed and compared with its row in python-excerpts.tsv:
// innermost frame, exception, error codes, anchor, and what else was kept.
// PYTHON_EXCERPTS_PRINT=1 prints the actual rows (review them before checking them in).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "python_test_util.h"

using namespace triage;

namespace {

const std::string kDir = std::string(TEST_DATA_DIR) + "/fixtures/reference/";

struct Excerpt {
  std::string id, text;
};

// Fenced blocks are "<section>#<n>"; inline `code` of the bullet list in 2.16 is "2.16-<n>".
std::vector<Excerpt> read_excerpts() {
  std::ifstream in(kDir + "real-log-excerpts.python.md");
  REQUIRE(in);
  std::vector<Excerpt> out;
  std::string line, section, block;
  int fence_no = 0, bullet_no = 0;
  bool in_fence = false;
  while (std::getline(in, line)) {
    if (!in_fence && line.rfind("### ", 0) == 0) {
      section = line.substr(4, line.find(' ', 4) - 4);
      fence_no = bullet_no = 0;
    } else if (line.rfind("```", 0) == 0) {
      if (in_fence) out.push_back({section + "#" + std::to_string(fence_no), block});
      else {
        ++fence_no;
        block.clear();
      }
      in_fence = !in_fence;
    } else if (in_fence) {
      block += line + "\n";
    } else if (section == "2.16" && line.rfind("- ", 0) == 0) {
      size_t a = line.find(" : `"), b = line.rfind('`');
      if (a != std::string::npos && b > a + 4)
        out.push_back({"2.16-" + std::to_string(++bullet_no), line.substr(a + 4, b - a - 4) + "\n"});
    }
  }
  return out;
}

std::map<std::string, std::string> read_expected() {
  std::ifstream in(kDir + "python-excerpts.tsv");
  REQUIRE(in);
  std::map<std::string, std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    out[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return out;
}

}  // namespace

TEST_CASE("python excerpts: every reference excerpt gives its expected facts", "[python][excerpts]") {
  auto excerpts = read_excerpts();
  auto expected = read_expected();
  // 1.7 (2 blocks) and section 2 (25 fenced blocks + 5 issue titles)
  REQUIRE(excerpts.size() == 32);
  bool print = std::getenv("PYTHON_EXCERPTS_PRINT") != nullptr;
  for (const auto& e : excerpts) {
    auto p = pytest::parse_python_text(e.text);
    std::string row = pytest::summarise(p);
    if (print) std::cout << e.id << '\t' << row << '\n';
    INFO("excerpt " << e.id);
    CHECK(p.stats.lines == p.stats.parsed + p.stats.unrecognised + p.stats.malformed);
    auto it = expected.find(e.id);
    CHECK(it != expected.end());
    if (it != expected.end()) CHECK(row == it->second);
  }
  CHECK(expected.size() == excerpts.size());
}
