#include "knowledge/device_event_sensors.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <tuple>

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"

namespace triage {
namespace {

// "0x63", "0xC0", "8", "0" (the driver prints %#x, which writes 0 without its 0x).
std::optional<uint32_t> number(std::string_view s) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  uint32_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

uint32_t device_event_id_of(uint32_t node_type, uint32_t sensor_type, uint32_t event_state, bool device) {
  return (device ? 0x2u << 30 : 0x1u << 30) | ((node_type & 0x7ffu) << 17) | ((sensor_type & 0xffu) << 9) |
         (event_state & 0x1ffu);
}

std::optional<uint32_t> DeviceEventSensors::event_id(uint32_t node_type, uint32_t sensor_type,
                                                     uint32_t event_state) const {
  auto key = std::make_tuple(node_type, sensor_type, event_state);
  auto it = std::lower_bound(rows.begin(), rows.end(), key, [](const DeviceEventSensorRow& r, const auto& k) {
    return std::make_tuple(r.node_type, r.sensor_type, r.event_state) < k;
  });
  if (it != rows.end() && std::make_tuple(it->node_type, it->sensor_type, it->event_state) == key) return it->event_id;
  if (node_type > 0x7ff || sensor_type > 0xff || event_state > 0x1ff) return std::nullopt;
  return device_event_id_of(node_type, sensor_type, event_state);
}

DeviceEventSensors parse_device_event_sensors(std::string_view content, const std::string& name,
                                              std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"node_type", "sensor_type", "event_state", "event_id",
                                                        "source"};
  DeviceEventSensors out;
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;
  for_each_table_row(content, name, kHeader, errors, [&](const std::string& where, const std::vector<std::string_view>& f) {
    auto node = number(f[0]), sensor = number(f[1]), state = number(f[2]), id = number(f[3]);
    if (!node || !sensor || !state || !id || !f[3].starts_with("0x") || f[3].size() != 10)
      return errors.push_back(where + ": node_type, sensor_type, event_state are numbers, event_id 0x + 8 hex digits");
    if (*node > 0x7ff || *sensor > 0xff || *state > 0x1ff)
      return errors.push_back(where + ": a field is wider than the event id holds (node 11 bits, sensor 8, state 9)");
    if ((*id & 0x3fffffffu) != (device_event_id_of(*node, *sensor, *state) & 0x3fffffffu) || (*id >> 30) == 0 ||
        (*id >> 30) == 3)
      return errors.push_back(where + ": event_id " + std::string(f[3]) +
                              " is not the driver's id of this node type, sensor type and event state");
    if (f[4].empty()) return errors.push_back(where + ": source is required");
    if (!seen.insert({*node, *sensor, *state}).second) return errors.push_back(where + ": duplicate triple");
    out.rows.push_back({*node, *sensor, *state, *id, std::string(f[4])});
  });
  std::sort(out.rows.begin(), out.rows.end(), [](const auto& a, const auto& b) {
    return std::tie(a.node_type, a.sensor_type, a.event_state) < std::tie(b.node_type, b.sensor_type, b.event_state);
  });
  return out;
}

const DeviceEventSensors& device_event_sensors_for(const std::string& dir) {
  return cached_table<DeviceEventSensors>(
      kDeviceEventSensorsFile, dir, [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return parse_device_event_sensors(c, n, e);
      });
}

}  // namespace triage
