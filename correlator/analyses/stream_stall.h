#pragma once
// stream-stall: the runtime's three-minute reports of one stream, read in order, tell a
// device that stopped (queue head frozen, backlog not falling) from a slow step (head moving).
// Finding ids and kinds: docs/findings/stall.md.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "correlator/analyses/analysis.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

enum class StreamVerdict { stalled, progressing, single_sample };

// The reports of one (process, device, stream, sq) of one host group, duplicates removed.
struct StreamHistory {
  std::string host;
  int64_t pid = 0;
  std::optional<int64_t> device;
  int64_t stream_id = 0;
  std::optional<int64_t> sq_id;
  std::vector<const StallReport*> samples;  // file order (entry by first time, then line)
  uint64_t duplicates = 0;                  // identical lines dropped (run/, debug/, stdout)
  bool clock_backwards = false;             // a later line carries an earlier time
  StreamVerdict verdict = StreamVerdict::single_sample;
  size_t frozen_from = 0;        // stalled: first sample of the frozen run at the end
  std::vector<const StreamSyncTimeout*> sync_timeouts;  // same pid and stream
};

// Pure function of the facts: the histories of every stream of the group, in a stable order.
std::vector<StreamHistory> stream_histories(const HostGroup& group);

// "pid 48213 device 0 stream 47 sq 9": how findings name a stream.
std::string stream_label(const StreamHistory& h);

void analyze_stream_stall(const AnalysisContext& ctx, std::vector<Finding>& findings);

}  // namespace triage
