// Device events in the three line forms ascend-fd's device-event rules match (issue 37):
// `event_id=0x...` (and `event_id: [0x...]`), `Event id=0x...`, and the older driver's sensor
// line `Node Type=..; ... Sensor Type=..; ... event_state=..)`, which names no id: its triple
// is looked up in knowledge/device-event-sensors.tsv.
#include <catch2/catch.hpp>

#include <string>

#include "correlator/analyses/device_exception.h"
#include "knowledge/device_event_sensors.h"
#include "knowledge/knowledge.h"
#include "model/host_facts.h"
#include "parsers/plog/device_export_parser.h"

#include "analysis_test_support.h"
#include "bundle_test_util.h"

using namespace triage;

namespace {

const std::string kDevOs = "ascend/device-logs/2024-04-20-16-30-05/slog/dev-os-3/run/device-os/device-os_1.log";
const std::string kHead = "[EVENT] KERNEL(4128,sklogd):2024-04-20-16:24:17.259.649 [klogd.c:253][2454.830650] ";

std::vector<DeviceRasEvent> events_of(const std::string& line) {
  BundleFacts facts;
  testing::parse_into(facts, parse_device_export, kDevOs, line + "\n");
  return facts.devices.ras_events;
}

}  // namespace

TEST_CASE("device-event-sensors.tsv: every triple's id is the driver's layout of it", "[device_export][knowledge]") {
  std::vector<std::string> errors;
  const DeviceEventSensors& t = device_event_sensors_for("");
  REQUIRE(t.rows.size() >= 120);  // ascend-fd's 125 rules with a Node Type alternative
  const KnowledgeBase& kb = knowledge_for("");
  for (const auto& r : t.rows) {
    INFO(r.source);
    CHECK(device_event_id_of(r.node_type, r.sensor_type, r.event_state) == r.event_id);
    char id[11];
    std::snprintf(id, sizeof id, "0x%08x", r.event_id);
    CHECK(kb.find_device_event(id));  // each names an event device-events.tsv explains
  }
  // The layout of dms_gen_event_id: 0x80C78008 is node 0x63, sensor 0xc0, state 8.
  CHECK(device_event_id_of(0x63, 0xc0, 8) == 0x80C78008u);
  CHECK(device_event_id_of(0x83, 0xc3, 3) == 0x81078603u);
  // A row whose id is not its triple's, and a duplicate, are refused.
  std::string head = "node_type\tsensor_type\tevent_state\tevent_id\tsource\n";
  parse_device_event_sensors(head + "0x63\t0xc0\t8\t0x80C78009\ts\n", "x.tsv", errors);
  CHECK(errors.size() == 1);
  errors.clear();
  parse_device_event_sensors(head + "0x63\t0xc0\t8\t0x80C78008\ts\n0x63\t0xc0\t8\t0x80C78008\ts\n", "x.tsv", errors);
  CHECK(errors.size() == 1);
  // Not in the table: the driver's layout with the device class bits.
  CHECK(t.event_id(0x63, 0xc0, 9) == std::optional<uint32_t>(0x80C78009u));
  CHECK_FALSE(t.event_id(0x800, 0xc0, 8));
}

TEST_CASE("a sensor line names its triple; near misses name none", "[device_export]") {
  // The report line of the NPU driver's fault manager (fms/smf/sensor/dms_sensor.c,
  // dms_sensor_report_event), older form without the id; the fields as ascend-fd's rule
  // 0x80C78008 quotes them (`Node Type=0x63;`, `Sensor Type=0xc0;`, `event_state=8)`).
  auto t = sensor_triple_in("Event Process Success. (Node Type=0x63; Sensor num=0x3; name=\"ts_sram\"; "
                            "Sensor Type=0xc0; Sensor Object=0x0; assertion=1; severity=2; event_state=8)");
  REQUIRE(t);
  CHECK(t->node_type == 0x63);
  CHECK(t->sensor_type == 0xc0);
  CHECK(t->event_state == 8);
  // %#x prints zero as `0`; the newer driver prints event_state in hex
  auto z = sensor_triple_in("(Node Type=0x7d; Sensor Type=0x27; Sensor Object=0x0; event_state=0x0; private_data=0x0)");
  REQUIRE(z);
  CHECK(z->event_state == 0);
  // near misses
  CHECK_FALSE(sensor_triple_in("Event Process Failed. (Node Type=0x63; Sensor num=0x3; name=\"x\"; "
                               "Sensor Type=0xc0; Sensor Object=0x0; assertion:1, severity:2)"));  // no state
  CHECK_FALSE(sensor_triple_in("Dms event kfifo is over 80 percent, drop user event. (dev_id=0; node_type=0x63; "
                               "node_id=0x0; sensor_type=0xC0; event_state=8; assertion=1)"));  // not the report
  CHECK_FALSE(sensor_triple_in("(Node Type=0x63; Sensor Type=zz; event_state=8)"));           // not a number
  CHECK_FALSE(sensor_triple_in("(event_state=8; Node Type=0x63; Sensor Type=0xc0)"));         // out of order
  CHECK_FALSE(sensor_triple_in("(Node Type=0x63) Sensor Type=0xc0; event_state=8)"));         // node not closed by ;
  CHECK_FALSE(sensor_triple_in("(Node Type=0x63; Sensor Type=0xc0; event_state=8"));          // state not closed
  CHECK_FALSE(sensor_triple_in("Node Type=; Sensor Type=0xc0; event_state=8)"));              // empty
}

TEST_CASE("the same device event in the three line forms yields the same finding", "[device_export][device_exception]") {
  // The three alternatives of ascend-fd's rule 0x80C78008 (kg-config.json), each in a device-os line.
  const std::vector<std::string> forms = {
      kHead + "[fault_manager] event_id=0x80c78008 occur",
      kHead + "[dms_module] Event Process Success. (Event id=0x80c78008; Node Type=0x63; Sensor num=0x3; "
              "name=\"ts_sram\"; Sensor Type=0xc0; Sensor Object=0x0; assertion=1; severity=2; event_state=0x8; "
              "private_data=0x0)",
      kHead + "[dms_module] Event Process Success. (Node Type=0x63; Sensor num=0x3; name=\"ts_sram\"; "
              "Sensor Type=0xc0; Sensor Object=0x0; assertion=1; severity=2; event_state=8)",
  };
  std::vector<Finding> found;
  for (const auto& line : forms) {
    INFO(line);
    auto ev = events_of(line);
    REQUIRE(ev.size() == 1);  // the second form names id and triple: one event, not two
    CHECK(ev[0].event_id == "0x80c78008");
    CHECK(ev[0].device == 3);
    CHECK(ev[0].time_text == "2024-04-20-16:24:17.259.649");
    BundleFacts b;
    b.devices.ras_events = ev;
    auto out = testing::run_analysis(analyze_device_exception, b);
    REQUIRE(out.size() == 1);
    found.push_back(out[0]);
  }
  for (const auto& f : found) {
    CHECK(f.id == found[0].id);
    CHECK(f.title == found[0].title);
    CHECK(f.severity == found[0].severity);
    CHECK(f.values == found[0].values);
  }
  CHECK(found[0].observed.find("0x80c78008") != std::string::npos);
  // A triple no rule names still reads as the driver's id (a generic device event).
  auto other = events_of(kHead + "Event Process Success. (Node Type=0x63; Sensor num=0x3; name=\"x\"; "
                                 "Sensor Type=0xc0; Sensor Object=0x0; assertion=1; severity=2; event_state=9)");
  REQUIRE(other.size() == 1);
  CHECK(other[0].event_id == "0x80c78009");
  // Near misses of the line form read nothing.
  CHECK(events_of(kHead + "Event Process Failed. (Node Type=0x63; Sensor num=0x3; name=\"x\"; Sensor Type=0xc0; "
                          "Sensor Object=0x0; assertion:1, severity:2)").empty());
  CHECK(events_of(kHead + "Dms event is covered. (dev_id=3; node_type=0x63; node_id=0x0; sensor_type=0xC0; "
                          "event_state=8; assertion=1; alarm_serial_num=7)").empty());
}
