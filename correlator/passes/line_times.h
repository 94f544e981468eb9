#pragma once
// The times of job-output lines that give no instant, for "In short" (reply_places.h): a line
// whose own or carried time (parsers/job/job_line_time.h) has no year the bundle could supply
// (mmengine's `05/22 09:09:35`, kept as written) or a full date without a zone. A finding's
// evidence line without a time of its own (the undefined symbol on the line after mmengine's
// stamp) is placed in time by it (issue 38). Times that are instants reach In short through
// the timeline instead.
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "model/host_facts.h"

namespace triage {

struct LineTimeText {
  std::string text;       // "2024-09-04 02:46:04" (a full date), else the time as written
  bool has_year = false;  // false: a year-less time as written ("05/22 09:09:35")
  std::string order;      // "MM-DD HH:MM:SS.ffffff": the earliest of several year-less ones
  bool year_estimated = false;  // its year is the bundle's, not written on the line
};
// (entry, line) -> its time.
using LineTimes = std::map<std::pair<std::string, uint64_t>, LineTimeText>;

LineTimes undated_line_times(const EvidenceSet& evidence);

}  // namespace triage
