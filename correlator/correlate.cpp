#include "correlator/correlate.h"

#include "correlator/analyses/analysis.h"
#include "correlator/passes/finding_groups.h"
#include "correlator/passes/process_ranks.h"
#include "correlator/passes/same_event.h"
#include "correlator/passes/unexplained_errors.h"
#include "correlator/passes/verdict.h"
#include "correlator/passes/verdict_reply.h"
#include "correlator/summaries/bundle_summary.h"
#include "correlator/timeline/timeline.h"

namespace triage {

Report correlate(const EvidenceSet& evidence, const AnalyzeOptions& options) {
  Report report;
  for (const auto& bundle : evidence.bundles) {
    report.bundles.push_back(summarize_bundle(bundle));
    BundleSummary& summary = report.bundles.back();
    // No zone in the bundle: say which one --utc-offset assumed, not that none was given.
    if (summary.zone.empty() && (options.assumed_zone || options.utc_offset_seconds)) {
      summary.zone = options.assumed_zone ? options.assumed_zone_name + " (" + options.assumed_zone->description() + ")"
                                          : ZoneRule::fixed(*options.utc_offset_seconds).description();
      summary.zone_origin = "--utc-offset, assumed: the input does not say its zone";
    }
    for (const auto& f : bundle.input_findings) report.findings.push_back(f);
  }
  const AnalysisContext ctx = AnalysisContext::load(evidence, options);
  for (const AnalysisRow& analysis : analyses()) analysis.run(ctx, report.findings);
  // Last: it reads every finding above to know which error lines they explain.
  analyze_unexplained_errors(ctx, report.findings);
  // After every analysis: it merges what they found per process into one finding per cause.
  group_findings_by_cause(options, report.findings);
  sort_findings(report.findings);
  // Both read the sorted findings: links and evidence refer to them by index.
  report.verdict = build_verdict(report.findings, evidence, options);
  report.timeline = build_timeline(report.findings, evidence, options);
  // One finding per event: after the verdict, which weighs every reading of an event; it moves
  // the verdict's and the timeline's references to the finding kept.
  fold_same_event(options, report.findings, report.verdict, report.timeline);
  // "In short" again, now that the timeline gives the findings' times, pids, devices and the
  // boots; the processes' environ gives their ranks.
  report.verdict.reply = verdict_reply(report.verdict, report.findings, report.timeline, ranks_from_environ(evidence),
                                        undated_line_times(evidence));
  return report;
}

}  // namespace triage
