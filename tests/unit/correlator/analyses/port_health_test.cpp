// The port checks ascend-fd computes from hccn_tool output (Comp_Network_Custom_*,
// knowledge/port-health.tsv), on its own environment-check input: Ascend/mind-cluster@22bb3d987bc0
// component/ascend-faultdiag/test/st_module_testcase/kg_parse/npu_info_before.txt lines 1-77 and
// npu_info_after.txt lines 1-13 (Apache-2.0), verbatim: each output follows its command.
#include <catch2/catch.hpp>

#include <string>

#include "correlator/analyses/port_health.h"
#include "knowledge/port_health.h"
#include "model/host_facts.h"
#include "parsers/tools/hccn_parsers.h"

#include "analysis_test_support.h"
#include "bundle_test_util.h"

using namespace triage;

namespace {

const char* kBefore = R"NPU(Datetime: 2024-09-09 13:13:44.179645

/usr/local/bin/npu-smi info -m
	NPU ID                         Chip ID                        Chip Logic ID                  Chip Name
	0                              0                              0                              Ascend 910A
	1                              0                              1                              Ascend 910A
	2                              0                              2                              Ascend 910A
	3                              0                              3                              Ascend 910A
	4                              0                              4                              Ascend 910A
	5                              0                              5                              Ascend 910A
	6                              0                              6                              Ascend 910A
	7                              0                              7                              Ascend 910A

/usr/local/bin/npu-smi info

/usr/local/Ascend/driver/tools/hccn_tool -i 0 -stat -g
packet statistics:
roce_rx_err_pkt_num:0
roce_tx_err_pkt_num:0

/usr/local/Ascend/driver/tools/hccn_tool -i 0 -link_stat -g
[devid 0]current time        : Wed Aug  2 03:09:26 2022
[devid 0]link up count       : 2
[devid 0]link change records :
[devid 0]    Tue Aug  1 14:43:40 2022    LINK UP
[devid 0]    Tue Aug  1 14:43:40 2022    LINK DOWN
[devid 0]    Tue Aug  1 14:43:26 2022    LINK UP

/usr/local/Ascend/driver/tools/hccn_tool -i 0 -fec -g
fec mode: no FEC mode

/usr/local/Ascend/driver/tools/hccn_tool -i 0 -net_health -g
net health status: Socket failed

/usr/local/Ascend/driver/tools/hccn_tool -i 0 -optical -g
optical info:
present              : not present
temperature          : 47 C
high power enable reg: enabled
vendor name          : Hisense
vendor part number   : LMQ8611-PC+
vendor serial number : V8BD6H25033
vendor org unique id : 0xac 0x4a 0x0
xsfp identifier      : QSFP+ or later
xsfp wave length     : 850 nm
manufact date code   : 2023.6.18
Vcc                  : 3262.90 mV
Tx Power0            : 4.4035 mW
Rx Power0            : 1.0189 mW
Tx Power1            : 1.3968 mW
Rx Power1            : 0.0054 mW
Tx Power2            : 1.4140 mW
Rx Power2            : 0.9907 mW
Tx Power3            : 1.4988 mW
Rx Power3            : 1.0213 mW
Vcc High Thres       : 3465.00 mV
Vcc Low Thres        : 3135.00 mV
Temp High Thres      : 70 C
Temp Low Thres       : 0 C
TxPower High Thres   : 3.5481 mW
TxPower Low Thres    : 0.2818 mW
RxPower High Thres   : 3.5481 mW
RxPower Low Thres    : 0.1445 mW
Tx Bias0             : 7.9360 mA
Tx Bias1             : 7.9280 mA
Tx Bias2             : 7.9360 mA
Tx Bias3             : 7.9240 mA
Tx Los Flag          : 0x0
Rx Los Flag          : 0xff
Tx LoL Flag          : 0x0
Rx LoL Flag          : 0xff
Host SNR Lane0       : not supported
Host SNR Lane1       : not supported
Host SNR Lane2       : not supported
Host SNR Lane3       : not supported
Media SNR Lane0      : 23.1211 dB
Media SNR Lane1      : 22.6289 dB
)NPU";
const char* kAfterLink = R"NPU(/usr/local/Ascend/driver/tools/hccn_tool -i 0 -stat -g
packet statistics:
roce_rx_err_pkt_num:0
roce_tx_err_pkt_num:0

/usr/local/Ascend/driver/tools/hccn_tool -i 0 -link_stat -g
[devid 0]current time        : Wed Aug  2 03:36:43 2022
[devid 0]link up count       : 2
[devid 0]link change records :
[devid 0]    Tue Aug  1 14:44:40 2022    LINK DOWN
[devid 0]    Tue Aug  1 14:43:40 2022    LINK UP
[devid 0]    Tue Aug  1 14:43:40 2022    LINK DOWN
[devid 0]    Tue Aug  1 14:43:26 2022    LINK UP
)NPU";

std::vector<Finding> port_findings(const BundleFacts& b, bool collective_failed = false) {
  std::vector<Finding> out;
  port_health(b, port_health_for(""), finding_texts_for(""), collective_failed, out);
  return out;
}

const Finding* rule(const std::vector<Finding>& v, std::string_view r) {
  for (const auto& f : v)
    if (f.find_value("rule") && *f.find_value("rule") == r) return &f;
  return nullptr;
}

std::string val(const Finding& f, std::string_view key) {
  const std::string* v = f.find_value(key);
  return v ? *v : "<absent>";
}

}  // namespace

TEST_CASE("port health: ascend-fd's npu_info_before.txt, each check on its verbatim lines", "[port_health]") {
  testing::TempDir dir;
  LoadResult keep;
  const BundleFacts& b = testing::load_one(dir, "npu_info_before.txt", kBefore, keep);
  REQUIRE(b.network.hccn.count(0));
  const HccnPort& p = b.network.hccn.at(0);
  CHECK(p.fec_mode == "no FEC mode");        // -fec has no file kind: the hccn_tool catch-all reads it
  CHECK(p.net_health == "Socket failed");
  CHECK(p.optical_present == "not present");
  CHECK(p.link_changes.size() == 3);
  auto out = port_findings(b);
  // fec, net health, module absent, power, loss of signal and of lock: six of the eight checks
  CHECK(out.size() == 6);
  const Finding* fec = rule(out, "fec-mode");
  REQUIRE(fec);
  CHECK(fec->id == "collective/port-health");
  CHECK(val(*fec, "ascend_fd") == "Comp_Network_Custom_02");
  CHECK(val(*fec, "devices") == "0");
  CHECK(val(*fec, "figure") == "device 0: fec mode: no FEC mode");
  CHECK(fec->severity == Severity::warning);
  CHECK(fec->title == "hccn_tool: a port runs without FEC (devices 0)");
  CHECK_FALSE(fec->does_not_prove.empty());
  REQUIRE(fec->evidence.size() == 1);
  CHECK(fec->evidence[0].excerpt == "fec mode: no FEC mode");
  const Finding* nh = rule(out, "net-health");
  REQUIRE(nh);
  CHECK(nh->evidence.at(0).excerpt == "net health status: Socket failed");
  CHECK(rule(out, "optical-absent"));
  const Finding* pw = rule(out, "optical-power");
  REQUIRE(pw);
  // Tx Power0 4.4035 mW above TxPower High Thres 3.5481 mW; Rx Power1 0.0054 mW below 0.1445 mW
  CHECK(val(*pw, "figure") ==
        "device 0: Tx Power0 4.4035 mW above TxPower High Thres 3.5481 mW, Rx Power1 0.0054 mW below RxPower Low "
        "Thres 0.1445 mW");
  CHECK(pw->evidence.size() == 4);  // the two lanes and the two thresholds they broke
  CHECK(val(*rule(out, "optical-los"), "figure") == "device 0: Rx Los Flag 0xff");
  CHECK(val(*rule(out, "optical-lol"), "figure") == "device 0: Rx LoL Flag 0xff");
  // The DOWN at 14:43:40 came back UP in the same second: no flap (ascend-fd: > 30 s).
  CHECK_FALSE(rule(out, "link-flap"));
  // Next to a collective failure the same checks are errors.
  CHECK(port_findings(b, true).at(0).severity == Severity::error);
}

TEST_CASE("port health: a LINK DOWN with no LINK UP after it is a flap; within 30 s it is not", "[port_health]") {
  testing::TempDir dir;
  LoadResult keep;
  const BundleFacts& b = testing::load_one(dir, "npu_info_after.txt", kAfterLink, keep);
  auto out = port_findings(b);
  const Finding* flap = rule(out, "link-flap");
  REQUIRE(flap);
  CHECK(val(*flap, "figure") == "device 0: LINK DOWN at Tue Aug  1 14:44:40 2022, no LINK UP after it");
  CHECK(val(*flap, "threshold") == "30");
  CHECK(flap->evidence.at(0).excerpt == "[devid 0]    Tue Aug  1 14:44:40 2022    LINK DOWN");
  // Near miss: the port came back 20 s later; a miss the other way: 31 s later.
  for (auto [up, hit] : {std::pair<std::string, bool>{"14:45:00", false}, {"14:45:11", true}}) {
    BundleFacts f;
    testing::parse_into(f, parse_hccn_link_stat, "ascend/hccn-link_stat-2.txt",
                        "[devid 2]    Tue Aug  1 " + up + " 2022    LINK UP\n"
                        "[devid 2]    Tue Aug  1 14:44:40 2022    LINK DOWN\n");
    INFO(up);
    CHECK(bool(rule(port_findings(f), "link-flap")) == hit);
  }
  CHECK(link_stat_seconds("Tue Aug  1 14:44:40 2022") - link_stat_seconds("Tue Aug  1 14:43:40 2022") == 60);
  CHECK(link_stat_seconds("Tue Aug 1 14:44:40") == -1);
  CHECK(link_stat_seconds("Tue Foo  1 14:44:40 2022") == -1);
}

TEST_CASE("port health: healthy answers raise nothing; a port without the others' address does", "[port_health]") {
  // The collector stub's healthy answers (tests/collector/stubs/hccn_tool), and a -fec answer
  // naming a mode (composed: `rs` as ascend-fd's `(\w{2}) FEC mode` reads it).
  BundleFacts ok;
  testing::parse_into(ok, parse_hccn_link, "ascend/hccn-link-0.txt", "link status: UP\nfec mode: rs FEC mode\n");
  testing::parse_into(ok, parse_hccn_net_health, "ascend/hccn-net_health-0.txt", "net health status: Success\n");
  testing::parse_into(ok, parse_hccn_ip, "ascend/hccn-ip-0.txt", "ipaddr:192.168.10.10\nnetmask:255.255.255.0\n");
  testing::parse_into(ok, parse_hccn_ip, "ascend/hccn-ip-1.txt", "ipaddr:192.168.10.11\nnetmask:255.255.255.0\n");
  CHECK(ok.network.hccn.at(0).fec_mode == "rs FEC mode");
  CHECK(port_findings(ok).empty());
  // Device 1 answers without an address (hccn_tool prints the keys empty), device 0 has one.
  testing::parse_into(ok, parse_hccn_ip, "ascend/hccn-ip-1.txt", "ipaddr:\nnetmask:\n");
  auto out = port_findings(ok);
  const Finding* ip = rule(out, "ip-missing");
  REQUIRE(ip);
  CHECK(val(*ip, "devices") == "1");
  CHECK(val(*ip, "ascend_fd") == "Comp_Network_Custom_07");
}

TEST_CASE("port-health.tsv: every rule once, thresholds of the right form", "[port_health][knowledge]") {
  const PortHealthRules& r = port_health_for("");
  CHECK(r.rules.size() == port_health_rule_ids().size());
  std::vector<std::string> errors;
  std::string head = "rule\tascend_fd\tquery\tthreshold\tmeaning\tsource\n";
  parse_port_health(head + "link-flap\tC1\t-link_stat\tthirty\tm\ts\n", "p.tsv", errors);
  CHECK_FALSE(errors.empty());  // not seconds, and the other rules missing
  errors.clear();
  parse_port_health(head + "no-such\tC\tq\t1\tm\ts\n", "p.tsv", errors);
  CHECK(errors.at(0).find("no-such") != std::string::npos);
}
