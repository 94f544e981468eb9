#pragma once
// Facts a CANN error report or runtime error line names in its text, kept so no finding has
// to say "pid 0" or "the device logs" when the report says more: device and chip from
// `device(chipId:n, dieId:n)`, device_id, stream/task ids, timeouts (`timeout:1836`,
// `timeout=1868`, `timeout:30min(default)`), operator and kernel names, errorStr.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace triage {

using ReportFacts = std::vector<std::pair<std::string, std::string>>;

// Appends the facts of `text` not yet in `out` (first value of each key wins).
void add_report_facts(std::string_view text, ReportFacts& out);

// "chip=0, die=0, stream_id=4, timeout=1836" ("" when none).
std::string report_facts_text(const ReportFacts& facts);

}  // namespace triage
