#pragma once
// The incident window of a timeline: the densest run of warnings and errors, the one holding
// a stream stall when there is one. A long incident (installs in June, the stall in
// September) is a few pixels wide on an axis over the whole range; every format names this
// window and the HTML report draws it as a focus chart. Presentation only: no finding
// depends on it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/timeline.h"

namespace triage {

struct FocusMarker {
  int64_t utc_us = 0;
  std::string label;  // "install: Ascend-hdk-...", "reboot"
};

struct FocusWindow {
  int64_t lo = 0, hi = 0;  // UTC microseconds, padded
  std::string why;         // "the stall of stream 47 and 4 error(s) around it"
  size_t stalls = 0, errors = 0, warnings = 0;
  std::vector<FocusMarker> before, after;  // installs and boots just outside, nearest first
};

// A timeline event that is a stalled stream's run of reports (a collapsed row the
// stream-stall finding cites).
bool is_stall_event(const TimelineEvent& e);

// nullopt when the timeline has no warning or error, or when the run covers most of the range
// (nothing to zoom into).
std::optional<FocusWindow> focus_window(const Timeline& t);

}  // namespace triage
