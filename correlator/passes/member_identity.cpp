#include "correlator/passes/member_identity.h"

#include <cctype>

namespace triage {
namespace {

bool digits(std::string_view s) {
  if (s.empty() || s.size() > 6) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// "10.20.8.250%bond1" -> "10.20.8.250"; "%bond4.24" (an interface only) -> "".
std::string server_address(std::string s) {
  s = s.substr(0, s.find('%'));
  return s;
}

}  // namespace

std::string device_of_entry(std::string_view entry) {
  for (size_t at = entry.find("device-"); at != std::string_view::npos; at = entry.find("device-", at + 1)) {
    if (at > 0 && entry[at - 1] != '/' && entry[at - 1] != '!') continue;
    size_t end = entry.find('/', at);
    if (end == std::string_view::npos) continue;  // the file name "device-1382_….log" is a pid
    std::string_view n = entry.substr(at + 7, end - at - 7);
    if (digits(n)) return std::string(n);
  }
  return "";
}

MemberIdentity read_member_identity(const BundleFacts& b, std::string name) {
  MemberIdentity m;
  m.name = std::move(name);
  for (const auto& h : b.logs.signature_hits) {
    if (h.id != "hccl/setup-agent" && h.id != "hccl/hcom-init" && h.id != "hccl/nic-listen") continue;
    std::string logic = capture_of(h, "logic_dev"), phy = capture_of(h, "phy_dev"), ip = capture_of(h, "device_ip");
    std::string rank = capture_of(h, "rank"), server = server_address(capture_of(h, "server"));
    if (logic.empty()) continue;
    m.devices.insert(logic);
    if (h.pid) m.device_of_pid.emplace(*h.pid, logic);
    if (!rank.empty()) m.rank_of_device.emplace(logic, rank);
    if (!ip.empty()) m.device_of_ip.emplace(ip, logic);
    if (!phy.empty()) m.logical_of_phy.emplace(phy, logic);
    if (!server.empty()) m.servers.insert(server);
  }
  // Device logs in device-N directories (the AI CPU's own log of that device).
  for (const auto& h : b.logs.signature_hits)
    if (std::string d = device_of_entry(h.evidence.entry); !d.empty()) m.devices.insert(d);
  // hccn_tool -ip of each device (npu_info_*.txt, the collector's hccn answers).
  for (const auto& [device, port] : b.network.hccn)
    if (!port.ip.empty()) m.device_of_ip.emplace(port.ip, std::to_string(device));
  return m;
}

std::optional<MemberDevice> resolve_member_device(const std::vector<MemberIdentity>& members, const RankRef& target,
                                                  size_t own) {
  auto found = [&](size_t i, const std::string& device) -> std::optional<MemberDevice> {
    if (device.empty()) return std::nullopt;
    auto r = members[i].rank_of_device.find(device);
    return MemberDevice{i, device, r == members[i].rank_of_device.end() ? "" : r->second};
  };
  if (!target.ip.empty()) {
    for (size_t i = 0; i < members.size(); ++i)
      if (auto d = members[i].device_of_ip.find(target.ip); d != members[i].device_of_ip.end()) return found(i, d->second);
    for (size_t i = 0; i < members.size(); ++i)
      if (members[i].servers.count(target.ip))
        return found(i, !target.device.empty() ? target.device : members[i].sole_device());
    return std::nullopt;  // an address no member has: not a member's rank, whatever its number
  }
  if (!target.rank.empty()) {
    std::optional<MemberDevice> hit;
    for (size_t i = 0; i < members.size(); ++i)
      for (const auto& [device, rank] : members[i].rank_of_device)
        if (rank == target.rank) {
          if (hit) return std::nullopt;  // two members claim the rank (two communicators): no one
          hit = MemberDevice{i, device, rank};
        }
    return hit;
  }
  if (!target.device.empty() && own < members.size()) {
    const auto& m = members[own];
    auto l = m.logical_of_phy.find(target.device);
    return found(own, l != m.logical_of_phy.end() ? l->second : target.device);
  }
  return std::nullopt;
}

}  // namespace triage
