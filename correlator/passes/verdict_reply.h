#pragma once
// "In short": the verdict in at most five lines of at most kReplyColumns, for an engineer to
// paste into a ticket reply (issue 38): what failed, where (host, device, rank, pid), when
// (UTC and the host's local time), the one next action in words (no command: that stays in
// the Verdict's next check), and what it does not prove when that fits. Lines are separated
// by '\n'; renderers print each line as it is.
#include <cstddef>
#include <string>
#include <vector>

#include "correlator/passes/line_times.h"
#include "correlator/passes/process_ranks.h"
#include "model/finding.h"
#include "model/timeline.h"
#include "model/verdict.h"

namespace triage {

inline constexpr size_t kReplyLines = 5;
inline constexpr size_t kReplyColumns = 98;  // the text report indents it by two: 100 columns

// `timeline` gives times, pids and devices of the findings' events when their values do not,
// and the boots; `ranks` the rank of a named process (its environ).
std::string verdict_reply(const Verdict& v, const std::vector<Finding>& findings, const Timeline& timeline = {},
                          const RanksByProcess& ranks = {}, const LineTimes& times = {});

}  // namespace triage
