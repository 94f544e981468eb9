// Install and operation log times are the host's local wall clock (the installers call
// `date`): converted with the host zone, like every other local reading (model/zones.h).
#include <algorithm>

#include "model/facts_events.h"
#include "model/zones.h"
#include "parsers/plog/seclog_parser.h"

namespace triage {

void finalize_event_facts(BundleFacts& facts, const AnalyzeOptions& options) {
  EventFacts& ev = facts.events;
  if (ev.finalized) return;
  ev.finalized = true;
  auto zone = zone_for_process(facts, std::nullopt, options);
  for (InstallEvent& e : ev.install) {
    if (!e.time.valid || e.time.time.known()) continue;
    std::string original = std::move(e.time.time.original);
    e.time.time = local_to_timestamp(e.time.civil, zone, original);
  }
  std::stable_sort(ev.install.begin(), ev.install.end(),
                   [](const InstallEvent& a, const InstallEvent& b) {
                     int64_t ka = a.time.time.known() ? a.time.time.utc_us : INT64_MAX;
                     int64_t kb = b.time.time.known() ? b.time.time.utc_us : INT64_MAX;
                     return ka < kb;
                   });
}

}  // namespace triage
