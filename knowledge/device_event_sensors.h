#pragma once
// knowledge/device-event-sensors.tsv: the device fault manager's (node type, sensor type,
// event state) triples and the event id each is. Older NPU drivers log a sensor event as
// `Event Process Success. (Node Type=0x63; ...; Sensor Type=0xc0; ...; event_state=8)`
// without its id; the device-log reader (parsers/plog/device_export_parser.cpp) turns such a
// line into the same DeviceRasEvent as `event_id=0x80c78008` and `Event id=0x80c78008`.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace triage {

constexpr std::string_view kDeviceEventSensorsFile = "device-event-sensors.tsv";

struct DeviceEventSensorRow {
  uint32_t node_type = 0, sensor_type = 0, event_state = 0;
  uint32_t event_id = 0;
  std::string source;
};

// The event id the driver builds from a triple (dms_gen_event_id in the NPU driver's
// fms/smf/sensor/dms_sensor.c): class bits 31-30 (2 = device, 1 = host), node type & 0x7ff
// in bits 27-17, sensor type in bits 16-9, event state in bits 8-0.
uint32_t device_event_id_of(uint32_t node_type, uint32_t sensor_type, uint32_t event_state, bool device = true);

struct DeviceEventSensors {
  std::vector<DeviceEventSensorRow> rows;  // sorted by (node, sensor, state)
  // The table's id for the triple; else the id the driver's layout gives a device event
  // (the lines are the device's own log), or nullopt when a field is out of its bit range.
  std::optional<uint32_t> event_id(uint32_t node_type, uint32_t sensor_type, uint32_t event_state) const;
};

// Columns node_type, sensor_type, event_state, event_id, source; each row's id must be the
// one the driver's layout gives its triple; problems as "file:line: message".
DeviceEventSensors parse_device_event_sensors(std::string_view content, const std::string& name,
                                              std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/device-event-sensors.tsv replaces it).
const DeviceEventSensors& device_event_sensors_for(const std::string& dir);

}  // namespace triage
