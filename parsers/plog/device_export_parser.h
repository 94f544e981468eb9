#pragma once
// The msnpureport export (ascend/device-logs/..., or such a tree under logs/ or extra/):
// each file goes to the parser of its shape (black-box kernel text, device syslog -> the
// kernel text parser; slog device-os / event / device-<id> logs -> the plog parser), and
// while they read it, a tap on the same bytes keeps the device's own RAS event ids and APEI
// memory-error blocks as typed facts (model/facts_device.h).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "knowledge/device_event_sensors.h"
#include "parsers/common/parser.h"

namespace triage {

// ParseFn for SourceKind::device_log_export.
void parse_device_export(ParseContext& ctx, ByteSource& src);

// What a file of an export is, from its path: event-log, device-os-log, bbox-history,
// bbox-kbox, bbox-driver, bbox-kernel, device-syslog, core-dump (not parsed), device-log.
std::string_view device_export_file_kind(std::string_view path);

// The black box's driver record (`bbox/driver.txt`): its exception id is a RAS event of the
// device the text names (`devid: 2`, `device_id = 2`), read by parse_bbox_driver.
void parse_bbox_driver(ParseContext& ctx, ByteSource& src);
struct BboxDriverLine {
  enum class Shape { none, header, status, exception_id, fail_info } shape = Shape::none;
  std::optional<int64_t> device;  // status and fail-info lines
  // A fail-info line's memory error: "multi-bit ECC" / "ECC" ("" when it names none) and
  // the physical address it gives (views into the line).
  std::string_view ecc, physical_address;
};
BboxDriverLine parse_bbox_driver_line(std::string_view text);

// Reads RAS events and memory-error blocks from the lines of one export file.
class DeviceExportScanner {
 public:
  DeviceExportScanner(ParseContext& ctx, std::string_view file_kind);
  void feed(std::string_view text, uint64_t number, uint64_t offset);

 private:
  ParseContext& ctx_;
  std::string_view entry_name_, file_kind_;
  std::optional<int64_t> device_;
  std::string address_, location_;  // of the APEI block being read
  const DeviceEventSensors& sensors_;  // knowledge/device-event-sensors.tsv
};

// The event of an older driver's sensor line, which names no id:
// `Event Process Success. (Node Type=0x63; Sensor num=0x1; name="ts"; Sensor Type=0xc0; Sensor
// Object=0x0; assertion=1; severity=2; event_state=8)`: the three fields in this order, each
// closed by `;` (event_state by `;` or `)`), values in hex (`0x63`, or `0` as %#x prints zero)
// or decimal. nullopt when a field is missing, out of order or not a number.
struct SensorTriple {
  uint32_t node_type = 0, sensor_type = 0, event_state = 0;
};
std::optional<SensorTriple> sensor_triple_in(std::string_view text);

}  // namespace triage
