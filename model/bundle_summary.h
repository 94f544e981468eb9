#pragma once
// What a bundle is, before any finding: host, collection time and zone, the collector and
// its arguments, and from the manifest what was collected and what was not (and why).
// Computed from facts only (correlator/bundle_summary.cpp) into Report::bundles; the
// reports render it first.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/host_facts.h"

namespace triage {

struct ItemOutcome {
  std::string path;
  ItemStatus status = ItemStatus::other;
  std::string status_text;  // as the manifest wrote it
  std::string reason;
  std::string error;
  std::optional<int64_t> rc;
  std::optional<int64_t> duration_ms;
  bool truncated = false;
  std::vector<std::pair<uint64_t, uint64_t>> kept_ranges;
  // Not collected only: every file of the step, `path` first (a probe writes five files that
  // share one command, start, status and reason). duration_ms is then the step's longest.
  std::vector<std::string> files;
};

// A file holding a tool's error text where data was expected.
struct ToolErrorEntry {
  std::string path;
  std::string reason;  // stats.not_collected
};

// A software version the bundle states: driver, firmware, CANN packages, the NPU frameworks.
struct VersionSeen {
  std::string component;  // "driver", "firmware", "CANN toolkit", "torch_npu", ...
  std::string version;
  EvidenceRef evidence;   // the line it was read from (the first such line)
};

// What one entry names, from the facts read out of it (the rows of `ascend-triage facts`):
// the processes, devices, ranks, components and versions it speaks of and the times it spans,
// so an engineer sees who and when a file is about even where no finding cites its lines
// (a healthy run, a grep of events). Naming is not causing: nothing here is a finding.
struct EntryMentions {
  struct Values {
    std::vector<std::string> shown;  // first seen first, at most kMaxShown
    size_t total = 0;                // distinct values in the entry
  };
  static constexpr size_t kMaxShown = 12;
  std::string path;  // the entry as evidence names it (EntryInfo::display)
  Values pids, devices, ranks, components, versions;
  std::string first_time, last_time;  // as printed, on the first and last line that has one
  uint64_t first_time_line = 0, last_time_line = 0;
};

struct BundleSummary {
  std::string input;
  std::string host, host_origin;
  std::string os;              // PRETTY_NAME, else NAME VERSION_ID
  std::string kernel_release;
  std::string boot_id;
  std::optional<int64_t> btime;
  std::optional<int64_t> collected_at_us;
  std::string collected_at_origin;
  std::optional<int> local_offset;  // host zone's offset at the collection time
  std::string zone, zone_origin;    // empty zone: unknown
  bool has_manifest = false;
  std::string collector_version;
  std::vector<std::string> collector_args;
  std::optional<int64_t> format_version;
  std::optional<int64_t> uid;
  std::string sudo_user;
  std::optional<bool> in_container;
  std::string items_origin;
  size_t items = 0;
  std::array<size_t, 8> status_counts{};  // indexed by ItemStatus
  size_t truncated_count = 0;
  std::vector<ItemOutcome> not_collected;  // one per step whose items are not ok, in manifest order
  std::vector<ItemOutcome> truncated;      // items kept only in part
  std::vector<ToolErrorEntry> tool_errors;
  std::vector<std::string> notes;          // manifest and system notes
  std::vector<VersionSeen> versions;       // as read, one per component (the first source)
  std::vector<EntryMentions> mentions;     // entries that name anything, by path
  // Log lines counted but not read for their values (issue 35): plog and kernel lines of a
  // repeated template folded onto its last kept line (FoldedRepeats), and plog lines past
  // the distinct rows an entry keeps (PlogFileParser::kMaxLevelRows).
  struct CountedOnly {
    uint64_t folded_lines = 0, folded_templates = 0, folded_entries = 0;
    uint64_t level_lines_over_cap = 0, level_entries_over_cap = 0;
  } counted_only;

  size_t count(ItemStatus s) const { return status_counts[static_cast<size_t>(s)]; }
};

// "driver 25.5.1, firmware 7.8.0.6.201, CANN toolkit 8.5.0, torch-npu 2.9.0.post6".
std::string versions_text(const std::vector<VersionSeen>& versions);

// "pid 48213, 31544; device 0; component APP, GE (+3 more)": the union over the entries, for
// the text reports (versions stay in versions_text; the JSON report keeps every entry's own).
std::string mentions_text(const std::vector<EntryMentions>& mentions);

// "133841 lines of 1 repeated template in 1 plog entry counted, not read (...)"; "" when none.
std::string counted_only_text(const BundleSummary& s);

// "30 ok, 2 absent, 1 timed_out" (statuses with a count only, in contract order).
std::string status_counts_text(const BundleSummary& s);

// The files of a not-collected step in one phrase: "probes/rand.{json,stdout,stderr}" when
// they differ only after the first dot of one directory's name, else comma-separated.
std::string step_files_text(const ItemOutcome& o);

}  // namespace triage
