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
