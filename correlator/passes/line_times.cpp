#include "correlator/passes/line_times.h"

#include <fmt/format.h>

#include <string>

namespace triage {

LineTimes undated_line_times(const EvidenceSet& evidence) {
  LineTimes out;
  for (const auto& b : evidence.bundles)
    for (const SignatureHit& h : b.logs.signature_hits) {
      if (h.source != "job" || !h.time.valid || h.time.time.known() || h.evidence.entry.empty()) continue;
      const CivilTime& c = h.time.civil;
      LineTimeText t;
      t.has_year = c.year != 0;
      t.text = t.has_year ? fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", c.year, c.month, c.day, c.hour,
                                        c.minute, c.second)
                          : h.time.time.original;
      t.year_estimated = t.has_year && h.time.time.original.find(std::to_string(c.year)) == std::string::npos;
      t.order = fmt::format("{:02}-{:02} {:02}:{:02}:{:02}.{:06}", c.month, c.day, c.hour, c.minute, c.second, c.micros);
      out.emplace(std::make_pair(h.evidence.entry, h.evidence.line), std::move(t));
    }
  return out;
}

}  // namespace triage
