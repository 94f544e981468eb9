// npu-smi parsers on every npu-smi excerpt of real-log-excerpts.md section 4 (copied under
// tests/fixtures/reference/) and on the samples' shapes.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "model/host_facts.h"
#include "model_test_support.h"
#include "parsers/tools/npu_smi_parsers.h"

using namespace triage;
using triage::test::run_kind;

namespace {

// The fenced code blocks of section `heading` ("### 4.2 ...") of the reference excerpts.
std::vector<std::string> blocks_of(std::string_view heading) {
  std::ifstream in(std::string(TEST_DATA_DIR) + "/fixtures/reference/real-log-excerpts.md");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  size_t at = text.find(std::string(heading));
  REQUIRE(at != std::string::npos);
  size_t end = text.find("\n### ", at + 1);
  std::string section = text.substr(at, end - at);
  std::vector<std::string> out;
  size_t pos = 0;
  while ((pos = section.find("```", pos)) != std::string::npos) {
    size_t body = section.find('\n', pos) + 1;
    size_t close = section.find("\n```", body);
    if (close == std::string::npos) break;
    out.push_back(section.substr(body, close - body + 1));
    pos = close + 4;
  }
  return out;
}

}  // namespace

TEST_CASE("npu-smi info: A3 layout with Phy-ID and the process table (4.1)", "[npu_smi]") {
  auto blocks = blocks_of("### 4.1 ");
  REQUIRE(blocks.size() >= 1);
  BundleFacts facts;
  auto stats = run_kind(SourceKind::npu_smi_info, "ascend/npu-smi-info.txt", blocks[0], facts);
  REQUIRE(facts.devices.info);
  const auto& info = *facts.devices.info;
  CHECK(info.version == "25.3.rc1.2");
  REQUIRE(info.chips.size() == 4);
  CHECK(info.chips[0].npu == 0);
  CHECK(info.chips[0].chip == 0);
  CHECK(info.chips[0].phy_id == 0);
  CHECK(info.chips[0].name == "Ascend910");
  CHECK(info.chips[0].health == "OK");
  CHECK(info.chips[0].power_w == Approx(157.4));
  CHECK(info.chips[0].temp_c == 32);
  CHECK(info.chips[0].bus_id == "0000:9D:00.0");
  CHECK(info.chips[0].aicore_pct == 0);
  CHECK(info.chips[0].hbm_used_mb == 59196);
  CHECK(info.chips[0].hbm_total_mb == 65536);
  CHECK_FALSE(info.chips[1].power_w);  // "-" on the second die
  CHECK(info.chips[1].chip == 1);
  CHECK(info.chips[3].npu == 1);
  CHECK(info.chips[3].phy_id == 3);
  REQUIRE(info.processes.size() == 4);
  CHECK(info.processes[0].pid == 166929);
  CHECK(info.processes[0].name.empty());
  CHECK(info.processes[3].memory_mb == 56367);
  CHECK(info.npus_without_processes == std::vector<int64_t>{4});
  CHECK(stats.malformed == 0);
  CHECK(stats.unrecognised == 2);  // the two "..." elision lines
  CHECK(stats.parsed + stats.unrecognised == stats.lines);
}

TEST_CASE("npu-smi info: 910B4-1, 910B3 rows, 26.0.rc2 wide layout, old 910 doc layout (4.2)", "[npu_smi]") {
  auto blocks = blocks_of("### 4.2 ");
  REQUIRE(blocks.size() == 4);
  {
    BundleFacts facts;
    auto stats = run_kind(SourceKind::npu_smi_info, "ascend/npu-smi-info.txt", blocks[0], facts);
    const auto& info = *facts.devices.info;
    CHECK(info.version == "25.2.0");
    REQUIRE(info.chips.size() == 2);
    CHECK(info.chips[1].name == "910B4-1");
    CHECK(info.chips[1].npu == 1);
    CHECK_FALSE(info.chips[1].phy_id);
    CHECK(info.chips[1].bus_id == "0000:C2:00.0");
    CHECK(info.chips[1].hbm_used_mb == 54996);
    CHECK(stats.malformed == 0);
    CHECK(stats.parsed == stats.lines);
  }
  {
    BundleFacts facts;
    run_kind(SourceKind::npu_smi_info, "ascend/npu-smi-info.txt", blocks[1], facts);
    REQUIRE(facts.devices.info->chips.size() == 1);
    CHECK(facts.devices.info->chips[0].name == "910B3");
    CHECK(facts.devices.info->chips[0].hbm_used_mb == 64399);  // "64399/ 65536"
  }
  {
    BundleFacts facts;
    auto stats = run_kind(SourceKind::npu_smi_info, "ascend/npu-smi-info.txt", blocks[2], facts);
    const auto& info = *facts.devices.info;
    CHECK(info.version == "26.0.rc2");
    REQUIRE(info.chips.size() == 2);
    CHECK(info.chips[0].power_w == Approx(162.6));
    CHECK(info.chips[0].hbm_used_mb == 3419);
    CHECK(info.chips[1].phy_id == 1);
    CHECK(stats.malformed == 0);
  }
  {
    BundleFacts facts;
    auto stats = run_kind(SourceKind::npu_smi_info, "ascend/npu-smi-info.txt", blocks[3], facts);
    const auto& info = *facts.devices.info;
    CHECK(info.version == "23.0.rc3");
    REQUIRE(info.chips.size() == 1);
    CHECK(info.chips[0].name == "xxx");
    CHECK(info.chips[0].hbm_used_mb == 30710);
    CHECK(info.chips[0].hbm_total_mb == 32768);
    CHECK(stats.malformed == 0);
  }
}

TEST_CASE("npu-smi -t health and -t usages-like outputs (4.3)", "[npu_smi]") {
  auto blocks = blocks_of("### 4.3 ");
  REQUIRE(blocks.size() >= 3);
  // The first block holds several commands; its health part is the first four lines.
  std::string health = blocks[0].substr(0, blocks[0].find("\n\n") + 1);
  BundleFacts facts;
  auto stats = run_kind(SourceKind::npu_smi_health, "ascend/npu-smi-health-0-0.txt", health, facts);
  REQUIRE(facts.devices.health.size() == 1);
  CHECK(facts.devices.health[0].status == "OK");
  CHECK(facts.devices.health[0].error_code == "NA");
  CHECK(facts.devices.health[0].npu == 0);
  CHECK(stats.unrecognised == 1);  // the command line itself
  // The `-t common` block has the usage-rate fields.
  BundleFacts u;
  run_kind(SourceKind::npu_smi_usages, "ascend/npu-smi-usages-0-0.1.txt", blocks[2], u);
  REQUIRE(u.devices.usages.size() == 1);
  CHECK(u.devices.usages[0].aicore_pct == 0);
  CHECK(u.devices.usages[0].hbm_pct == 0);
  CHECK(u.devices.usages[0].sample == 1);
}

TEST_CASE("npu-smi failure texts inside containers (4.4)", "[npu_smi]") {
  auto blocks = blocks_of("### 4.4 ");
  REQUIRE(blocks.size() == 2);
  BundleFacts facts;
  auto stats = run_kind(SourceKind::npu_smi_info, "ascend/npu-smi-info.txt", blocks[0], facts);
  CHECK(facts.devices.info->failure_code == -8005);
  CHECK(facts.devices.info->chips.empty());
  CHECK(facts.devices.info->evidence.line == 2);
  CHECK(stats.not_collected.find("tool_failed") == 0);
  BundleFacts used;
  run_kind(SourceKind::npu_smi_info, "ascend/npu-smi-info.txt", blocks[1], used);
  CHECK(used.devices.info->failure_code == -8020);
  BundleFacts map;
  run_kind(SourceKind::npu_smi_map, "ascend/npu-smi-map.txt", blocks[0], map);
  REQUIRE(map.devices.map_failure);
  CHECK(map.devices.map_failure->failure_code == -8005);
  CHECK(map.devices.map.empty());
}

TEST_CASE("npu-smi: health not OK, usage sample with sampled_utc, -m map", "[npu_smi]") {
  BundleFacts facts;
  run_kind(SourceKind::npu_smi_health, "ascend/npu-smi-health-3-1.txt",
           "        Health Status                  : Alarm\n        Error Code                     : 80E01809\n"
           "        Error Information              : node type=HBM, sensor type=Memory\n",
           facts);
  REQUIRE(facts.devices.health.size() == 1);
  CHECK(facts.devices.health[0].status == "Alarm");
  CHECK(facts.devices.health[0].npu == 3);
  CHECK(facts.devices.health[0].chip == 1);
  CHECK(facts.devices.health[0].evidence.line == 1);

  auto stats = run_kind(SourceKind::npu_smi_usages, "ascend/npu-smi-usages-2-0.2.txt",
                        "sampled_utc=2026-09-04T01:55:11Z\n        NPU ID                         : 2\n"
                        "        Aicore Usage Rate(%)           : 37\n        Chip ID                        : 0\n",
                        facts);
  REQUIRE(facts.devices.usages.size() == 1);
  CHECK(facts.devices.usages[0].sampled_utc_us == int64_t{1788486911} * 1000000);
  CHECK(facts.devices.usages[0].aicore_pct == 37);
  CHECK(facts.devices.usages[0].sample == 2);
  CHECK(stats.parsed == 4);

  auto bad = run_kind(SourceKind::npu_smi_usages, "ascend/npu-smi-usages-2-0.3.txt",
                      "sampled_utc=yesterday\nAicore Usage Rate(%) : 1\n", facts);
  CHECK(bad.malformed == 1);

  run_kind(SourceKind::npu_smi_map, "ascend/npu-smi-map.txt",
           "\tNPU ID                         Chip ID                        Chip Logic ID                  Chip Name                      \n"
           "\t0                              0                              0                              Ascend 910B3\n"
           "\t0                              1                              -                              Mcu                            \n",
           facts);
  REQUIRE(facts.devices.map.size() == 2);
  CHECK(facts.devices.map[0].logic_id == 0);
  CHECK(facts.devices.map[0].chip_name == "Ascend 910B3");
  CHECK_FALSE(facts.devices.map[1].logic_id);
}

TEST_CASE("npu-smi: the Ascend 950 driver's health and current fault events", "[npu_smi]") {
  // The driver reference's `npu-smi info -t health` answer: `Health`, not `Health Status`,
  // and the NPU ID inside (a pasted file's name names none).
  BundleFacts facts;
  auto stats = run_kind(SourceKind::npu_smi_health, "npu-smi.txt",
                        "        NPU ID                         : 0\n        Health                         : OK\n"
                        "        Error Code                     : NA\n        Error Information              : NA\n",
                        facts);
  REQUIRE(facts.devices.health.size() == 1);
  CHECK(facts.devices.health[0].status == "OK");
  CHECK(facts.devices.health[0].npu == 0);
  CHECK(facts.devices.health[0].error_code == "NA");
  CHECK(stats.parsed == 4);
  // `-t current-fault-event`: the event id is a fault-manager event, as in the device logs.
  BundleFacts events;
  auto es = run_kind(SourceKind::npu_smi_health, "npu-smi.txt",
                     "Fault Event Count              : 2\n"
                     "Fault Event Information        : event id=0x81AF8000, severity=2, node type ex=215, node id=0\n"
                     "Fault Event Information        : event id=0x80E01809, severity=3\n"
                     // near misses: no id, an id too long, an id glued to more hex-looking text
                     "Fault Event Information        : none\n"
                     "Fault Event Information        : event id=0x123456789, severity=1\n"
                     "Fault Event Information        : event id=0x81AF8000g, severity=1\n",
                     events);
  CHECK(events.devices.health.empty());
  REQUIRE(events.devices.ras_events.size() == 2);
  CHECK(events.devices.ras_events[0].event_id == "0x81af8000");
  CHECK(events.devices.ras_events[0].file_kind == "npu-smi");
  CHECK(events.devices.ras_events[0].evidence.line == 2);
  CHECK(events.devices.ras_events[1].event_id == "0x80e01809");
  CHECK(es.malformed == 3);
}

TEST_CASE("npu-smi: a tool error is not collected, not an empty table", "[npu_smi]") {
  BundleFacts facts;
  auto stats = run_kind(SourceKind::npu_smi_info, "ascend/npu-smi-info.txt",
                        "sh: 1: npu-smi: not found\n", facts);
  CHECK_FALSE(facts.devices.info);
  CHECK(stats.not_collected.find("tool_missing") == 0);
  auto garbage = run_kind(SourceKind::npu_smi_info, "ascend/npu-smi-info.txt",
                          "| 0     910B3 | OK | 1 2 |\n| x | 0000:01:00.0 | 0 |\n", facts);
  CHECK(garbage.malformed == 1);
}

TEST_CASE("npu-smi entry names give npu, chip and sample", "[npu_smi]") {
  auto ids = npu_smi_name_ids("ascend/npu-smi-usages-7-1.12.txt", "npu-smi-usages-");
  CHECK(ids.npu == 7);
  CHECK(ids.chip == 1);
  CHECK(ids.sample == 12);
  CHECK_FALSE(npu_smi_name_ids("ascend/other.txt", "npu-smi-usages-").npu);
  CHECK(npu_smi_failure_code("dcmi model initialized failed, because the device is used. ret is -8020") == -8020);
  CHECK_FALSE(npu_smi_failure_code("dcmi module initialize ok"));
}

TEST_CASE("npu-smi info: the Ascend950 layout (name in a column of its own), cut after the first row", "[npu_smi]") {
  // tests/data/real/gpustack-6148-npu-smi-info-ascend950pr/console.txt, the table as pasted
  const std::string table =
      "+-------------------------------------------------------------------------------------------------+\n"
      "| npu-smi 25.7.rc1.6                               Version: 25.7.rc1.6                            |\n"
      "+--------+------------------+---------------+-----------------------------------------------------+\n"
      "| NPU ID | Name             | Health        | Power(W)    Temp(C)           Hugepages-Usage(page) |\n"
      "|        |                  | Bus-Id        | NPU Util(%) Memory-Usage(MB)  HBM-Usage(MB)         |\n"
      "+========+==================+===============+=====================================================+\n"
      "| 0      | Ascend950PR      | OK            | 201.2       55                0     / 0             |\n";
  BundleFacts facts;
  auto stats = run_kind(SourceKind::npu_smi_info, "ascend/npu-smi-info.txt", table, facts);
  CHECK(stats.malformed == 0);
  REQUIRE(facts.devices.info);
  CHECK(facts.devices.info->version == "25.7.rc1.6");
  REQUIRE(facts.devices.info->chips.size() == 1);
  const NpuChipRow& c = facts.devices.info->chips[0];
  CHECK(c.npu == 0);
  CHECK(c.name == "Ascend950PR");
  CHECK(c.health == "OK");
  CHECK(c.power_w == 201.2);
  CHECK(c.temp_c == 55);
  // Near misses: an id that is no number, a name cell left empty.
  BundleFacts bad;
  auto s2 = run_kind(SourceKind::npu_smi_info, "ascend/npu-smi-info.txt",
                     "| x      | Ascend950PR      | OK            | 201.2 55 |\n| 1      |                  | OK            | 201.2 55 |\n",
                     bad);
  CHECK(s2.malformed == 2);
  CHECK((!bad.devices.info || bad.devices.info->chips.empty()));
}

TEST_CASE("npu-smi info: the header's driver Version, and a second empty output in a paste", "[npu_smi]") {
  // The header names the tool's version and the driver's, which may carry a patch suffix.
  BundleFacts h;
  run_kind(SourceKind::npu_smi_info, "npu-smi-info.txt",
           "+----------------------------------------------------------------------------------------------+\n"
           "| npu-smi 24.1.rc3.1               Version: 24.1.rc3.1.sph002                                  |\n",
           h);
  REQUIRE(h.devices.info);
  CHECK(h.devices.info->version == "24.1.rc3.1");
  CHECK(h.devices.info->driver_version == "24.1.rc3.1.sph002");
  // Near miss: a header without `Version:` names no driver version.
  BundleFacts n;
  run_kind(SourceKind::npu_smi_info, "npu-smi-info.txt", "| npu-smi 24.1.rc3.1 |\n", n);
  REQUIRE(n.devices.info);
  CHECK(n.devices.info->driver_version.empty());
  // Two npu-smi outputs in one paste: a second that holds only the log-level line does not
  // erase the first one's DCMI failure; a second with a failure of its own replaces it.
  auto blocks = blocks_of("### 4.4 ");
  BundleFacts two;
  run_kind(SourceKind::npu_smi_info, "npu-smi-info.txt", blocks[1], two);
  run_kind(SourceKind::npu_smi_info, "npu-smi-info.txt", "DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)\n", two);
  REQUIRE(two.devices.info);
  CHECK(two.devices.info->failure_code == -8020);
  run_kind(SourceKind::npu_smi_info, "npu-smi-info.txt", blocks[0], two);
  CHECK(two.devices.info->failure_code == -8005);
}
