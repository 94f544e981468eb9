// One UTC axis across every source (docs/timeline.md): occurrences from each bundle,
// boots, measured clock skews; repeats collapsed; findings linked to the rows holding their
// evidence lines; then the user's filter.
#include "correlator/timeline/timeline.h"

#include <algorithm>
#include <unordered_set>

#include "correlator/timeline/timeline_internal.h"

namespace triage {

Timeline build_timeline(const std::vector<Finding>& findings, const EvidenceSet& evidence,
                        const AnalyzeOptions& options) {
  Timeline t;
  std::vector<BootMark> boots;
  for (const BundleFacts& b : evidence.bundles) {
    auto bm = timeline_boots(b);
    std::move(bm.begin(), bm.end(), std::back_inserter(boots));
  }
  t.boots = merge_boots(std::move(boots));
  // Only the lines a finding cites are linked to their rows: no key for every occurrence.
  std::unordered_set<std::string> cited;
  for (const Finding& f : findings)
    for (const EvidenceRef& ev : f.evidence)
      if (ev.line != 0) cited.insert(line_key(ev));
  // One bundle's occurrences are folded into their rows as they are made (issue 35: the list
  // of every occurrence was the peak of a plog-heavy analysis). Several bundles are not: the
  // same line in two of them is found by its exact text and time, which folding would lose.
  EarlyFold fold{t.boots, cited};
  EarlyFold* early = evidence.bundles.size() == 1 ? &fold : nullptr;
  std::vector<TimelineOccurrence> occurrences;
  for (size_t i = 0; i < evidence.bundles.size(); ++i) {
    const BundleFacts& b = evidence.bundles[i];
    auto occ = timeline_occurrences(b, i, options, early);
    // The first bundle's list is taken as it is: appending it to an empty list held two
    // buffers of every occurrence at once, the analysis's peak on a plog-heavy bundle (issue 35).
    if (occurrences.empty()) occurrences = std::move(occ);
    else std::move(occ.begin(), occ.end(), std::back_inserter(occurrences));
    auto sk = timeline_skews(b);
    std::move(sk.begin(), sk.end(), std::back_inserter(t.skews));
    if (b.system.collected_at_us)
      t.collection_utc_us = std::max(t.collection_utc_us.value_or(INT64_MIN), *b.system.collected_at_us);
  }
  t.undated = fold.undated;
  std::unordered_map<std::string, size_t> line_to_row;
  t.events = collapse_occurrences(std::move(occurrences), t.boots, t.undated, line_to_row, &cited);
  link_findings(t.events, line_to_row, findings);
  apply_timeline_filter(t, options.timeline);
  sort_timeline(t);
  return t;
}

}  // namespace triage
