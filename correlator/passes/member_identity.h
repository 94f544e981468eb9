#pragma once
// Who is who among the members of one job (issue 37): each input of a multi-input analyze is a
// member (a host, or a worker-N/rank-N directory of ascend-fd's collection layout); within it a
// process is a device, as HCCL's identity lines state it (SetupAgent, hcom init, NIC listen:
// knowledge/signatures/collective.json) or as its device-N log directory says. Another member's
// wait line names a device by its NIC address, its server's address and device, or its rank:
// resolve_member_device() finds the member and device it is.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "knowledge/wait_edges.h"
#include "model/host_facts.h"

namespace triage {

struct MemberIdentity {
  std::string name;                                  // the host, else the input's name
  std::map<int64_t, std::string> device_of_pid;      // pid -> logical device
  std::map<std::string, std::string> rank_of_device;  // logical device -> rank (SetupAgent, hcom init)
  std::map<std::string, std::string> device_of_ip;    // a device's NIC / virtual NIC address -> device
  std::map<std::string, std::string> logical_of_phy;  // physical device id -> logical
  std::set<std::string> servers;                      // the member's server addresses
  std::set<std::string> devices;                      // every logical device named
  bool known() const { return !devices.empty(); }
  // The member's device when it has only one, else "".
  std::string sole_device() const { return devices.size() == 1 ? *devices.begin() : ""; }
};

// The device of a `device-N` directory in an entry's path ("…/debug/device-11/device-1382_….log"), or "".
std::string device_of_entry(std::string_view entry);

// The identity lines and device directories of one input.
MemberIdentity read_member_identity(const BundleFacts& b, std::string name);

struct MemberDevice {
  size_t member = 0;
  std::string device, rank;
};

// The member and device a wait line's target names: by NIC address, by server address and
// device (or the server's only device), by rank (as some member's identity lines state it),
// or, for a device alone, the waiter's own member (`own`) and that physical device.
std::optional<MemberDevice> resolve_member_device(const std::vector<MemberIdentity>& members, const RankRef& target,
                                                  size_t own);

}  // namespace triage
