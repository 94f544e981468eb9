#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "bundle/line_reader.h"

using namespace triage;

namespace {
std::vector<Line> all_lines(std::string_view data, size_t max_line, std::vector<std::string>& texts) {
  StringSource src(data);
  LineReader reader(src, max_line);
  std::vector<Line> lines;
  Line l;
  while (reader.next(l)) {
    texts.emplace_back(l.text);
    lines.push_back(l);
  }
  return lines;
}
}  // namespace

TEST_CASE("line reader splits lines and keeps offsets", "[line_reader]") {
  std::vector<std::string> t;
  auto lines = all_lines("a\r\nbb\n\nccc", 16, t);
  REQUIRE(lines.size() == 4);
  CHECK(t == std::vector<std::string>{"a", "bb", "", "ccc"});
  CHECK(lines[1].offset == 3);
  CHECK(lines[1].number == 2);
  CHECK(lines[3].offset == 7);
  CHECK(lines[3].unterminated);
  CHECK_FALSE(lines[2].unterminated);
}

TEST_CASE("line reader cuts an overlong line and resumes after it", "[line_reader]") {
  std::string big(100000, 'x');
  std::string data = "first\n" + big + "\nlast\n";
  std::vector<std::string> t;
  auto lines = all_lines(data, 1000, t);
  REQUIRE(lines.size() == 3);
  CHECK(t[0] == "first");
  CHECK(lines[1].overlong);
  CHECK(t[1].size() == 1000);
  CHECK(lines[1].full_length == 100000);
  CHECK(t[2] == "last");
  CHECK(lines[2].offset == 6 + 100000 + 1);
  CHECK(lines[2].number == 3);
}

TEST_CASE("line reader handles an overlong unterminated last line", "[line_reader]") {
  std::string data = "ok\n" + std::string(5000, 'y');
  std::vector<std::string> t;
  auto lines = all_lines(data, 100, t);
  REQUIRE(lines.size() == 2);
  CHECK(lines[1].overlong);
  CHECK(lines[1].unterminated);
  CHECK(lines[1].full_length == 5000);
}

TEST_CASE("line reader: empty input has no lines", "[line_reader]") {
  std::vector<std::string> t;
  CHECK(all_lines("", 10, t).empty());
}
