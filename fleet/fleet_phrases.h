#pragma once
// The sentences every fleet format shares (text, Markdown, JSON, HTML: fleet/render_fleet*.cpp),
// so that the formats cannot say different things about the same fleet.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "fleet/fleet_report.h"

namespace triage::fleet {

extern const std::string_view kSkewCaveat;

bool skew_applied(const RankedNode& n);                    // the node's offset is corrected for
std::string when(const std::optional<int64_t>& us);        // UTC, or "undated"
std::string seconds(int64_t ms);                           // "+2.5 s"
std::string where(const RankedNode& r);                    // "node-3 rank 27 device 3 pid 4242"
std::string how(const RankedNode& r);                      // the first finding, its class and time
std::string headline(const FleetReport& r);                // "4 nodes: 1 origin, 3 waiters, 0 other"
std::string first_line(const FleetReport& r);              // who failed first, and how
std::string wait_line(const FleetReport& r);               // the wait graph's root, and agreement

}  // namespace triage::fleet
