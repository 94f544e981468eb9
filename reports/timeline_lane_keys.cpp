#include "reports/timeline_lane_keys.h"

#include <fmt/format.h>

#include <iterator>
#include <optional>
#include <set>
#include <tuple>

#include "model/timeline_lanes.h"

namespace triage {
namespace {

using ProcessKey = std::pair<std::string, int64_t>;
constexpr size_t kMaxKeyedLanes = 64;

struct Key {
  int group = 2;  // 0 rank, 1 device, 2 source
  std::string host;
  int64_t number = 0;  // the rank or the device
  size_t order = 0;    // source_index()
  std::string source;
  bool operator<(const Key& o) const {
    return std::tie(group, host, number, order, source) < std::tie(o.group, o.host, o.number, o.order, o.source);
  }
};

std::string source_of(const TimelineEvent& e) { return e.source.empty() ? "unknown" : e.source; }

}  // namespace

size_t source_index(std::string_view source) {
  for (size_t i = 0; i < kTimelineLanes.size(); ++i)
    if (kTimelineLanes[i] == source) return i;
  return kTimelineLanes.size();
}

TimelineLanes assign_lanes(const Timeline& t, const RanksByProcess& ranks) {
  // The one device a process's events name (nullopt: several).
  std::map<ProcessKey, std::optional<int64_t>> device_of;
  std::set<std::string> hosts;
  for (const auto& e : t.events) {
    if (!e.host.empty()) hosts.insert(e.host);
    if (!e.pid || !e.device) continue;
    auto [it, fresh] = device_of.emplace(ProcessKey{e.host, *e.pid}, e.device);
    if (!fresh && it->second != e.device) it->second = std::nullopt;
  }
  bool name_host = hosts.size() > 1;
  std::vector<Key> keys(t.events.size());
  std::map<Key, std::set<int64_t>> rank_devices;  // devices seen in each rank lane
  for (size_t i = 0; i < t.events.size(); ++i) {
    const TimelineEvent& e = t.events[i];
    std::optional<int64_t> rank, device = e.device;
    if (e.pid) {
      ProcessKey p{e.host, *e.pid};
      if (auto r = ranks.find(p); r != ranks.end()) rank = r->second;
      if (!device)
        if (auto d = device_of.find(p); d != device_of.end()) device = d->second;
    }
    Key& k = keys[i];
    if (rank || device) {
      k.group = rank ? 0 : 1;
      k.host = name_host ? e.host : std::string();
      k.number = rank ? *rank : *device;
      if (rank && device) rank_devices[k].insert(*device);
    } else {
      k.source = source_of(e);
      k.order = source_index(k.source);
    }
  }
  // Hostile or odd input naming thousands of devices must not draw thousands of lanes: past
  // kMaxKeyedLanes, events go to their source's lane.
  std::set<Key> keyed;
  for (const auto& k : keys)
    if (k.group < 2) keyed.insert(k);
  if (keyed.size() > kMaxKeyedLanes) {
    auto first_dropped = std::next(keyed.begin(), static_cast<std::ptrdiff_t>(kMaxKeyedLanes));
    for (size_t i = 0; i < keys.size(); ++i)
      if (keys[i].group < 2 && !(keys[i] < *first_dropped)) {
        rank_devices.erase(keys[i]);
        keys[i] = Key{};
        keys[i].source = source_of(t.events[i]);
        keys[i].order = source_index(keys[i].source);
      }
  }
  std::map<Key, size_t> index;
  for (const auto& k : keys) index.emplace(k, 0);
  TimelineLanes out;
  for (auto& [k, i] : index) {
    i = out.lanes.size();
    TimelineLane lane;
    lane.host = k.host;
    lane.by_source = k.group == 2;
    std::string on = k.host.empty() ? "" : " on " + k.host;
    if (k.group == 0) {
      const std::set<int64_t>& devs = rank_devices[k];
      lane.label = fmt::format("rank {}", k.number);
      if (devs.size() == 1) lane.label += fmt::format(" dev {}", *devs.begin());
      lane.title = fmt::format("rank {}{} (RANK of the process's environment){}: every source", k.number, on,
                               devs.size() == 1 ? fmt::format(", device {}", *devs.begin()) : "");
    } else if (k.group == 1) {
      lane.label = fmt::format("dev {}", k.number);
      lane.title = fmt::format("device {}{}: every source", k.number, on);
    } else {
      lane.label = k.source;
      lane.title = k.source + ": events without a rank or device";
    }
    out.lanes.push_back(std::move(lane));
  }
  out.of_event.reserve(keys.size());
  for (const auto& k : keys) out.of_event.push_back(index[k]);
  return out;
}

}  // namespace triage
