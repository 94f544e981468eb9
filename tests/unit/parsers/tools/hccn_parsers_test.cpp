// hccn_tool answers (ascend/hccn-<query>-<logic id>.txt) read into NetworkFacts::hccn: the
// device from the entry name, each answer's value and its line, and what is not understood
// counted. Texts as Huawei's hccn_tool documentation quotes them (link_stat, net_health) and
// as the collector's stub prints them (tests/collector/stubs/hccn_tool).
#include <catch2/catch.hpp>

#include "model_test_support.h"

using namespace triage;
using triage::test::run_kind;

TEST_CASE("hccn parsers: link, net health and ip of a device named by the entry", "[hccn]") {
  BundleFacts facts;
  run_kind(SourceKind::hccn_link, "ascend/hccn-link-3.txt", "link status: DOWN\n", facts);
  run_kind(SourceKind::hccn_net_health, "ascend/hccn-net_health-3.txt", "net health status: Fault\n", facts);
  run_kind(SourceKind::hccn_ip, "ascend/hccn-ip-3.txt", "ipaddr:192.168.10.13\nnetmask:255.255.255.0\n", facts);
  REQUIRE(facts.network.hccn.count(3) == 1);
  const HccnPort& p = facts.network.hccn.at(3);
  CHECK(p.device == 3);
  CHECK(p.link_status == "DOWN");
  CHECK(p.link_evidence.entry == "bundle/ascend/hccn-link-3.txt");  // the display path
  CHECK(p.link_evidence.line == 1);
  CHECK(p.net_health == "Fault");
  CHECK(p.ip == "192.168.10.13");
  CHECK(p.netmask == "255.255.255.0");
}

TEST_CASE("hccn parsers: link_stat keeps the up count and every change in file order", "[hccn]") {
  BundleFacts facts;
  // The documented answer, then a LINK DOWN record as real-log-excerpts quotes it ("devid").
  run_kind(SourceKind::hccn_link_stat, "ascend/hccn-link_stat-0.txt",
           "[device 0]current time        : Sat Jun 13 17:09:10 2026\n"
           "[device 0]link up count       : 2\n"
           "[device 0]link change records :\n"
           "[device 0]    Sat Jun 13 00:01:12 2026    LINK UP\n"
           "[devid 0]    Tue Aug  1 14:43:40 2022    LINK DOWN\n",
           facts);
  const HccnPort& p = facts.network.hccn.at(0);
  REQUIRE(p.link_up_count);
  CHECK(*p.link_up_count == 2);
  REQUIRE(p.link_changes.size() == 2);
  CHECK(p.link_changes[0].up);
  CHECK_FALSE(p.link_changes[1].up);
  CHECK(p.link_changes[1].evidence.line == 5);
}

TEST_CASE("hccn parsers: -stat keeps only non-zero error counters; optical presence", "[hccn]") {
  BundleFacts facts;
  run_kind(SourceKind::hccn_stat, "ascend/hccn-stat-1.txt",
           "packet statistics:\nmac_tx_total_pkt_num:1289321\nmac_rx_bad_pkt_num:0\n"
           "roce_rx_err_pkt_num:17\n",
           facts);
  run_kind(SourceKind::hccn_optical, "ascend/hccn-optical-1.txt",
           "optical info:\n    present              : present\n    Vendor               : HUAWEI\n", facts);
  const HccnPort& p = facts.network.hccn.at(1);
  REQUIRE(p.error_counters.size() == 1);
  CHECK(p.error_counters[0].first == "roce_rx_err_pkt_num");
  CHECK(p.error_counters[0].second == 17);
  CHECK(p.stat_evidence.line == 4);
  CHECK(p.optical_present == "present");
}

TEST_CASE("hccn parsers: -tls -g for every device, each line naming its device or following it", "[hccn]") {
  BundleFacts facts;
  // As HCCL's fault-diagnosis guide prints it (tests/data/real/hccl-docs-hccn-tool-tls-g-*), one
  // switch changed; the entry name names no device.
  ParseStats s = run_kind(SourceKind::hccn_link, "hccn-tool.txt",
                          "dev_id:0, tls switch[0](0:disable, 1:enable), tls alarm time threshold[60]days\n"
                          "dev_id:0, [pub cert] info:\n"
                          "         issuer[/C=CN/ST=GD/O=HUAWEI/OU=2012/CN=2_1thCA]\n"
                          "         start_time[Wed Feb 19 03:19:21 2020 GMT]\n"
                          "         end_time[Sat Feb 16 03:19:21 2030 GMT]\n"
                          "dev_id:1, tls switch[1](0:disable, 1:enable), tls alarm time threshold[60]days\n"
                          "... ...\n",
                          facts);
  REQUIRE(facts.network.hccn.count(0) == 1);
  REQUIRE(facts.network.hccn.count(1) == 1);
  CHECK(facts.network.hccn.at(0).tls_switch == "0");
  CHECK(facts.network.hccn.at(1).tls_switch == "1");
  CHECK(facts.network.hccn.at(1).tls_evidence.line == 6);
  CHECK(s.parsed == 6);
  CHECK(s.unrecognised == 1);  // the guide's elision mark
  // Near misses: a switch without its value, a certificate line that does not close.
  BundleFacts other;
  ParseStats n = run_kind(SourceKind::hccn_link, "hccn-tool.txt",
                          "dev_id:2, tls switch[](0:disable, 1:enable)\ndev_id:2, issuer[/C=CN\n", other);
  CHECK(other.network.hccn.at(2).tls_switch.empty());
  CHECK(n.unrecognised == 2);
}

TEST_CASE("hccn parsers: the Ascend 950 driver's -link_stat table, its rows the NPU's changes", "[hccn]") {
  BundleFacts facts;
  // Verbatim (tests/data/real/driver-docs-950-hccn-tool-link-stat-flaps-port-4).
  ParseStats s = run_kind(SourceKind::hccn_link_stat, "hccn-tool.txt",
                          "link up count :    2\n"
                          "link down count :  2\n"
                          "+-----+------+------+-------------+-------------------------+\n"
                          "| NPU | UDie | Port | Link_Status | Time_Stamp              |\n"
                          "+-----+------+------+-------------+-------------------------+\n"
                          "|  0  |  0   |  4   |  LINK_UP    | Mon Feb 9 21:45:51 2026 |\n"
                          "|  0  |  0   |  4   |  LINK_DOWN  | Mon Feb 9 21:45:47 2026 |\n"
                          "+-----+------+------+-------------+-------------------------+\n",
                          facts);
  REQUIRE(facts.network.hccn.count(0) == 1);
  const HccnPort& p = facts.network.hccn.at(0);
  REQUIRE(p.link_up_count);
  CHECK(*p.link_up_count == 2);
  REQUIRE(p.link_changes.size() == 2);
  CHECK(p.link_changes[0].up);
  CHECK(p.link_changes[1].when == "Mon Feb 9 21:45:47 2026");
  CHECK_FALSE(p.link_changes[1].up);
  CHECK(s.unrecognised == 0);
  // Near miss: a state the table does not print, and a row with a cell too many.
  BundleFacts other;
  ParseStats n = run_kind(SourceKind::hccn_link_stat, "hccn-tool.txt",
                          "|  0  |  0   |  4   |  LINK_FLAP  | Mon Feb 9 21:45:51 2026 |\n"
                          "|  0  |  0   |  4   |  LINK_UP    | Mon Feb 9 21:45:51 2026 | x |\n",
                          other);
  CHECK(other.network.hccn.at(0).link_changes.empty());
  CHECK(n.unrecognised == 2);
}
