#pragma once
// One UTC axis across every source of a bundle: events, boots, clock skews between sources.
// Built by correlator/timeline.cpp from facts and findings; rendered by reports/.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/evidence.h"
#include "model/severity.h"

namespace triage {

// An event; repeats collapse (signature + normalised message + process/stream) into one row.
struct TimelineEvent {
  int64_t first_utc_us = 0;
  int64_t last_utc_us = 0;  // == first for a single occurrence
  uint64_t count = 1;
  std::string source;  // lane: plog, journal, dmesg, syslog, install-log, operation-log,
                       // module-files, process, probe, collector, device-log
  std::string kind;    // signature:<id>, finding:<id>, log-line, boot, install, process-start,
                       // probe-run, collection, stall-span
  Severity severity = Severity::info;
  std::string message;  // normalised, one line
  std::string host;
  std::optional<int64_t> pid;
  std::optional<int64_t> device;
  std::optional<int64_t> stream;
  std::optional<int> local_offset_seconds;  // the host's local zone at that instant, if known
  std::string time_note;  // how the time was derived when not exact ("boot-relative", ...)
  EvidenceRef evidence;   // first occurrence
  std::vector<std::string> finding_ids;  // findings this event is evidence of
};

struct BootMark {
  std::string host;
  std::string boot_id;
  int64_t start_utc_us = 0;
  bool after_previous = false;  // a reboot: a boot of the same host followed an earlier one
  EvidenceRef evidence;
};

// A measured offset between two sources on named pairs; b_minus_a_seconds > 0 means b's clock
// reads later than a's for the same moment. Nothing is silently reordered because of it.
struct ClockSkew {
  std::string host;
  std::string source_a, source_b;  // e.g. journal, dmesg
  double b_minus_a_seconds = 0;
  uint64_t pairs = 0;  // matched lines the figure rests on
  EvidenceRef a_evidence, b_evidence;  // one matched pair
  std::string method;  // "same kernel line", "probe started_utc vs its plog", ...
};

struct TimelineFilter {
  std::optional<int64_t> since_utc_us;
  std::optional<int64_t> until_utc_us;
  std::vector<std::string> sources;  // empty = all
  Severity min_severity = Severity::info;
};

struct Timeline {
  std::vector<TimelineEvent> events;  // by first_utc_us, then source, then message
  std::vector<BootMark> boots;
  std::vector<ClockSkew> skews;
  std::optional<int64_t> collection_utc_us;
  uint64_t filtered_out = 0;  // events the filter removed (said in the report)
  uint64_t undated = 0;       // lines that would be events but carry no usable time
};

}  // namespace triage
