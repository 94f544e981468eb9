#pragma once
// Finishing the log facts once the whole bundle is read: local plog times through the
// process's zone, dmesg uptimes through btime, year-less syslog times through the
// collection time; the same kernel line from journal, dmesg and syslog merged; kernel
// signature hits moved to the common list; facts sorted by time.
#include "model/host_facts.h"
#include "model/options.h"

namespace triage {

void finalize_log_facts(BundleFacts& facts, const AnalyzeOptions& options);

// Kernel lines count as one when their normalised messages are equal, their boots do not
// differ, and their times lie within this many seconds (wider when a time is approximate).
constexpr double kKernelDedupeExactS = 2.0;
constexpr double kKernelDedupeApproxS = 10.0;

}  // namespace triage
