#pragma once
// The timeline's lanes (docs/timeline.md, "Sources (lanes)"), in the order the HTML report
// draws them. One list for `--source`, the renderers and the docs test
// (tests/unit/model/timeline_lanes_test.cpp): a new lane is one entry here and one row there.
#include <array>
#include <string_view>

namespace triage {

inline constexpr std::array<std::string_view, 11> kTimelineLanes = {
    "plog",    "device-log",  "probe",         "process",      "journal",  "dmesg",
    "syslog",  "install-log", "operation-log", "module-files", "collector"};

}  // namespace triage
