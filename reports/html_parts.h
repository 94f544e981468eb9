#pragma once
// The sections of the HTML report (reports/html_*.cpp); render_html() puts them together.
// Each appends HTML to `out`; every bundle string is escaped with html::escape().
#include <optional>
#include <string>

#include "model/host_facts.h"
#include "model/report.h"
#include "reports/evidence_path.h"
#include "reports/timeline_lane_keys.h"

namespace triage::html {

// "In short": the verdict's reply, a few lines for the ticket (nothing without one).
void in_short_card(const Report& report, std::string& out);
// The verdict card: summary, ranked hypotheses with links to findings, the next check.
void verdict_card(const Report& report, std::string& out);
// One bundle's summary: host, system, collection time, zone, collector, what was not collected.
void bundle_summary(const BundleSummary& summary, const BundleFacts& bundle, std::string& out);
// Every finding with its fields, the public pages it rests on (from `knowledge_dir`, "" =
// built-in) and collapsible evidence (paths inside the bundle); anchors "f-<index>". Findings
// at info are folded into one <details> (open with --full).
void findings_section(const Report& report, const EvidencePaths& paths, bool open_info,
                      const std::string& knowledge_dir, std::string& out);
// The SVG timeline (lanes per rank or device, else per source; reports/timeline_lane_keys.h),
// skews and the event table. `host_offset` is the host's UTC offset when the bundles state
// one (used when events carry none); `ranks` gives the events' processes their rank.
void timeline_section(const Report& report, std::optional<int> host_offset, const RanksByProcess& ranks,
                      std::string& out);
// The tables under it (reports/html_timeline_tables.cpp).
void timeline_skews_table(const Timeline& t, std::string& out);
void timeline_events_table(const Report& report, std::optional<int> offset, std::string& out);

// "sev-error" etc., for CSS classes.
std::string severity_class(Severity s);
// Index of the first finding with this id, or nullopt.
std::optional<size_t> finding_index(const Report& report, std::string_view id);

}  // namespace triage::html
