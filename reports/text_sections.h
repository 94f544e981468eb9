#pragma once
// The sections of the text report, in the order render_text() writes them: the verdict, the
// bundle summaries, the findings with their evidence, then the top rows of the timeline.
#include <string>
#include <vector>

#include "model/bundle_summary.h"
#include "model/report.h"
#include "reports/text_layout.h"

namespace triage::text {

struct Layout {
  Style style;
  size_t width = 100;
  bool full = false;  // --full: every evidence line
};

// "F3 module-provenance/stale-links": the finding's number in the findings section and its id.
std::string finding_label(const Report& report, const FindingLink& link);

void append_verdict(std::string& out, const Report& report, const Layout& layout);
void append_bundle_summary(std::string& out, const BundleSummary& s, const BundleFacts& b,
                           const Layout& layout);
void append_findings(std::string& out, const Report& report, const Layout& layout);
void append_timeline_top(std::string& out, const Timeline& timeline, const Layout& layout);

// Indexes of the `max` most severe timeline events (earlier first among equals), in time
// order: the rows the text and Markdown reports show; the `timeline` command shows all.
std::vector<size_t> top_timeline_rows(const Timeline& timeline, size_t max);
// "2026-09-04T01:25:58Z" (whole seconds, for timeline rows).
std::string utc_seconds(int64_t utc_us);
// The event's host-local wall clock, "09:25:58+08:00", or "local ?" when the zone is unknown.
std::string local_clock(const TimelineEvent& e);

// Column where a label's value starts ("Does not prove:  " fits), relative to the block indent.
constexpr size_t kLabelColumns = 17;

// "   Observed:        text wrapped with a hanging indent under the value column".
void append_labelled(std::string& out, std::string_view indent, std::string_view label,
                     std::string_view text, const Layout& layout);

}  // namespace triage::text
