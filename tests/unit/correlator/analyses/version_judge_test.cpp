#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "correlator/analyses/version_matrix.h"

using namespace triage;

namespace {

std::string trim(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  return s.substr(i);
}

}  // namespace

TEST_CASE("table 1.1 (verbatim copy) equals the declared rows of the data file, value by value") {
  std::ifstream in(std::string(TEST_DATA_DIR) + "/fixtures/reference/ascend-facts.table-1.1.md");
  REQUIRE(in);
  std::vector<std::vector<std::string>> table;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("|", 0) != 0 || line.find(":--") != std::string::npos ||
        line.find("TorchNPU installation") != std::string::npos)
      continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|')) cells.push_back(trim(cell));
    REQUIRE(cells.size() == 4);
    table.push_back(cells);
  }
  const VersionTables& t = builtin_version_tables();
  CHECK(t.errors.empty());
  std::vector<const WheelRow*> declared;
  for (const auto& r : t.wheels)
    if (r.status == "declared") declared.push_back(&r);
  REQUIRE(table.size() == 62);
  REQUIRE(declared.size() == table.size());
  for (size_t i = 0; i < table.size(); ++i) {
    INFO("row " << i + 1 << ": " << table[i][0]);
    std::string wheel = table[i][0];
    if (auto b = wheel.find(" (beta)"); b != std::string::npos) wheel.erase(b);
    CHECK(declared[i]->torch_npu == wheel);
    CHECK(declared[i]->branch == table[i][1]);
    CHECK(declared[i]->torch == table[i][2]);
    CHECK("CANN " + declared[i]->cann == table[i][3]);
  }
  size_t inferred = 0;
  for (const auto& r : t.wheels) inferred += r.status == "inferred";
  CHECK(inferred > 30);
}

TEST_CASE("the incident's combinations, by table 1.1") {
  const VersionTables& t = builtin_version_tables();
  Judgement a = judge_wheel(t, "2.8.0.post2", "2.8.0", "8.5.0");
  CHECK(a.verdict == Compatibility::compatible);
  Judgement b = judge_wheel(t, "2.8.0.post4", "2.8.0", "8.5.0");
  CHECK(b.verdict == Compatibility::incompatible);
  CHECK(b.reason.find("9.0.0") != std::string::npos);
  Judgement c = judge_wheel(t, "2.9.0.post6", "2.9.0", "9.1.0");
  CHECK(c.verdict == Compatibility::compatible);
  CHECK(judge_wheel(t, "2.9.0.post6+git2ab7354", "2.9.0", "9.1.0").verdict == Compatibility::compatible);
  // torch that the row does not pair with the wheel
  CHECK(judge_wheel(t, "2.9.0.post6", "2.8.0", "9.1.0").verdict == Compatibility::incompatible);
  // RC spelling is case-insensitive
  CHECK(judge_wheel(t, "2.8.0", "2.8.0", "8.3.rc1").verdict == Compatibility::compatible);
}

TEST_CASE("a hotfix wheel is not declared, with its inferred CANN") {
  const VersionTables& t = builtin_version_tables();
  Judgement j = judge_wheel(t, "2.8.0.post3", "2.8.0", "8.5.0");
  CHECK(j.verdict == Compatibility::not_declared);
  CHECK(j.inferred_cann == "8.5.x");
  Judgement k = judge_wheel(t, "2.8.0.post5", "2.8.0", "8.5.0");  // inferred 9.0.x: still only info
  CHECK(k.verdict == Compatibility::not_declared);
  CHECK(judge_wheel(t, "9.9.9", "", "9.1.0").verdict == Compatibility::not_declared);
  CHECK(judge_wheel(t, "not a version", "", "9.1.0").verdict == Compatibility::not_declared);
}

TEST_CASE("CANN against driver: tables, exclusions, compatible_version") {
  const VersionTables& t = builtin_version_tables();
  CHECK(judge_cann_driver(t, "9.1.0", "26.0.rc1", "", "").verdict == Compatibility::compatible);
  Judgement ex = judge_cann_driver(t, "9.1.0", "25.0.rc1.1", "", "");
  CHECK(ex.verdict == Compatibility::incompatible);
  CHECK(judge_cann_driver(t, "8.5.0", "25.5.1", "", "").verdict == Compatibility::compatible);
  // only the driver's own list declares it
  CHECK(judge_cann_driver(t, "7.9.9", "26.0.rc1", "[V100R001C21],[V100R001C11]",
                          "V100R001C11SPC001B243").verdict == Compatibility::compatible);
  CHECK(judge_cann_driver(t, "7.9.9", "26.0.rc1", "[V100R001C15,V100R001C18]",
                          "V100R001C17B214").verdict == Compatibility::compatible);
  CHECK(judge_cann_driver(t, "7.9.9", "26.0.rc1", "[V100R001C21]", "V100R001C11SPC001B243").verdict ==
        Compatibility::not_declared);
}

TEST_CASE("driver against firmware: different numbering is never a conflict") {
  CHECK(judge_driver_firmware("26.0.rc1", "9.0.0.0.205", "[7.0.0,9.9.99]",
                              "[25.5,25.5.],[26.0,26.0.]").verdict == Compatibility::compatible);
  CHECK(judge_driver_firmware("25.0.rc1", "7.7.0.1.231", "[7.0.0,7.7.99]", "").verdict ==
        Compatibility::compatible);
  CHECK(judge_driver_firmware("25.0.rc1.1", "7.7.0.1.231", "", "[24.1,24.1.],[25.0,25.0.]").verdict ==
        Compatibility::compatible);
  // no declaration either way: only "not declared"
  Judgement j = judge_driver_firmware("26.0.rc1", "7.7.0.1.231", "", "");
  CHECK(j.verdict == Compatibility::not_declared);
  CHECK(judge_driver_firmware("24.1.rc1", "7.5.0.1.129", "[7.0.0,7.2.99]", "").verdict ==
        Compatibility::not_declared);
}

TEST_CASE("version table files: malformed rows are reported") {
  CHECK(check_version_table("torch_npu\tb\tt\tc\ts\tsrc\n2.9.0\tb\t2.9.0\t9.1.0\tdeclared\tx\n",
                            "versions/torch_npu_cann.tsv").empty());
  CHECK(check_version_table("2.9.0\tb\t2.9.0\n", "versions/torch_npu_cann.tsv").size() == 1);
  CHECK(check_version_table("9.1.x\t25.0.x\tmaybe\tx\n", "versions/cann_hdk.tsv").size() == 1);
}
