// The contract's TSV rules: header first, columns by name, unknown columns ignored,
// escapes, empty = unknown, booleans 1/0; damaged rows counted, never silently dropped.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "bundle/byte_source.h"
#include "parsers/common/tsv.h"
#include "model_test_support.h"

using namespace triage;
using triage::test::newlines;

TEST_CASE("tsv: columns by name, unknown columns ignored, escapes decoded", "[tsv]") {
  const std::string data =
      "kver\tmodule\tpath\tnew_column\ttarget_exists\tsize\n"
      "5.10.0\tdrv_pcie_host\t/lib/modules/5.10.0/updates/drv_pcie_host.ko\tx\t1\t123456\n"
      "5.10.0\tdrv_devmm_host\t/lib/modules/a\\tb\\\\c\\nd\\re\t\t0\t\n"
      "5.10.0\tascend_x\t\t\t\tnot-a-number\n";
  StringSource src(data);
  ParseStats stats;
  TsvReader tsv(src, stats, "modules/tree.tsv");
  REQUIRE(tsv.read_header());
  int module = tsv.column("module"), path = tsv.column("path"), exists = tsv.column("target_exists"),
      size = tsv.column("size");
  CHECK(tsv.column("missing") == -1);
  CHECK(tsv.header().size() == 6);

  REQUIRE(tsv.next());
  CHECK(tsv.field(module) == "drv_pcie_host");
  CHECK(tsv.boolean(exists) == true);
  CHECK(tsv.integer(size) == 123456);
  CHECK(tsv.line().number == 2);
  tsv.count_parsed();

  REQUIRE(tsv.next());
  CHECK(tsv.field(path) == "/lib/modules/a\tb\\c\nd\re");
  CHECK(tsv.raw(path) == "/lib/modules/a\\tb\\\\c\\nd\\re");
  CHECK(tsv.boolean(exists) == false);
  CHECK_FALSE(tsv.known(size));
  CHECK_FALSE(tsv.integer(size));
  CHECK(tsv.field(-1).empty());
  tsv.count_parsed();

  REQUIRE(tsv.next());
  CHECK_FALSE(tsv.known(path));
  CHECK_FALSE(tsv.boolean(exists));  // empty = unknown
  CHECK(tsv.known(size));
  CHECK_FALSE(tsv.integer(size));
  tsv.count_unrecognised();

  CHECK_FALSE(tsv.next());
  CHECK(stats.lines == newlines(data));
  CHECK(stats.parsed == 3);  // header + 2 rows
  CHECK(stats.unrecognised == 1);
  CHECK(stats.malformed == 0);
  CHECK(stats.bytes == data.size());
}

TEST_CASE("tsv: damaged rows are counted malformed with samples", "[tsv]") {
  const std::string data =
      "fd\ttarget\n"
      "0\t/dev/null\n"
      "1\n"                          // too few fields
      "2\t/a\textra\n"               // too many
      "3\t/bad\\escape\n"            // unknown escape
      "4\t/trailing\\\n"             // lone backslash at the end
      "\n"                           // blank
      "5\t/dev/davinci0";            // unterminated last line is still a row
  StringSource src(data);
  ParseStats stats;
  TsvReader tsv(src, stats, "processes/1/fd.tsv");
  REQUIRE(tsv.read_header());
  std::vector<std::string> targets;
  while (tsv.next()) {
    targets.emplace_back(tsv.field(tsv.column("target")));
    tsv.count_parsed();
  }
  CHECK(targets == std::vector<std::string>{"/dev/null", "/dev/davinci0"});
  CHECK(stats.lines == newlines(data) + 1);
  CHECK(stats.parsed == 3);
  CHECK(stats.malformed == 4);
  CHECK(stats.unrecognised == 1);
  CHECK(stats.parsed + stats.malformed + stats.unrecognised == stats.lines);
  REQUIRE(stats.samples_of_malformed.size() == 4);
  CHECK(stats.samples_of_malformed[0].line == 3);
  CHECK(stats.samples_of_malformed[0].excerpt == "field count differs from the header: 1");
  CHECK(stats.samples_of_malformed[2].excerpt == "bad escape: 3\\x09/bad\\escape");
  CHECK(stats.samples_of_malformed[2].entry == "processes/1/fd.tsv");
}

TEST_CASE("tsv: a tool's error text instead of a header is 'not collected'", "[tsv]") {
  const std::string data = "ls: cannot access '/lib/modules': Permission denied\n";
  StringSource src(data);
  ParseStats stats;
  TsvReader tsv(src, stats, "modules/tree.tsv");
  CHECK_FALSE(tsv.read_header());
  CHECK(stats.not_collected == "permission: ls: cannot access '/lib/modules': Permission denied");
  CHECK(stats.lines == 1);
  CHECK(stats.unrecognised == 1);
  CHECK(stats.parsed == 0);

  StringSource empty("");
  ParseStats s2;
  TsvReader none(empty, s2, "x.tsv");
  CHECK_FALSE(none.read_header());
  CHECK(s2.lines == 0);
  CHECK(s2.not_collected.empty());
}

TEST_CASE("tsv: unescape rules", "[tsv]") {
  std::string out;
  CHECK(TsvReader::unescape("a\\\\b\\tc\\nd\\re", out));
  CHECK(out == "a\\b\tc\nd\re");
  CHECK_FALSE(TsvReader::unescape("a\\x", out));
  CHECK_FALSE(TsvReader::unescape("a\\", out));
  CHECK(TsvReader::unescape("", out));
  CHECK(out.empty());
}
