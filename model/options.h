#pragma once
// Options that shape reading and analysis, shared by every stage.
#include <cstdint>
#include <optional>
#include <string>

#include "model/time.h"
#include "model/timeline.h"

namespace triage {

struct InputLimits {
  uint64_t max_total_bytes = uint64_t{32} << 30;  // all inputs, decompressed
  uint64_t max_entry_bytes = uint64_t{4} << 30;   // one entry, decompressed
  uint64_t max_entries = 1000000;                 // entries across all inputs
  // Entries of one input listed one by one; past it, an entry that added nothing but counts
  // is counted per kind (InventoryFacts::folded) so a million members cost no row each.
  uint64_t max_listed_entries = 20000;
  size_t max_line_bytes = size_t{1} << 20;        // longer lines are cut and counted malformed
};

struct AnalyzeOptions {
  InputLimits limits;
  std::optional<int> utc_offset_seconds;  // --utc-offset: zone of loose logs whose zone is unknown
  std::optional<ZoneRule> assumed_zone;   // --utc-offset NAME (an IANA zone, with its DST rule)
  std::string assumed_zone_name;          // "Asia/Shanghai"
  std::string knowledge_dir;              // --knowledge: overrides the built-in knowledge
  TimelineFilter timeline;                // --since/--until/--source/--min-severity
  std::string stdin_name = "stdin";       // --name: what the input `-` is called in evidence
  // Info-level kernel lines of a bundle kept whole before the compact form takes over
  // (model/facts_logs.h KernelInfoLine). Reports are the same either way; tests set 0 to
  // check that.
  uint64_t full_info_kernel_lines = 2048;
  // --threads: 2 reads (walks, decompresses, hashes) on a second thread while this one parses;
  // 1 does both here. Reports are the same either way (bundle/read_ahead.h).
  int read_threads = 1;
};

}  // namespace triage
