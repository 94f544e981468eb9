#pragma once
// Renderers: no analysis here, only presentation of a Report and the facts behind it.
#include <ostream>
#include <string_view>

#include "model/host_facts.h"
#include "model/report.h"

namespace triage {

struct RenderOptions {
  bool color = false;  // ANSI colour in the text report
  int width = 100;     // columns for the text report
  // --redact: the sentence every format shows at its top ("" = not redacted).
  std::string redaction_note;
  // --full: every finding and evidence line in full; without it the Markdown report fits
  // kMarkdownBudget and findings at info are one line each (docs/reports.md).
  bool full = false;
  // --knowledge DIR ("" = built-in): where the Markdown and HTML reports take each finding's
  // public sources from (knowledge/finding-sources.tsv, knowledge/source_links.h).
  std::string knowledge_dir;
};

// Characters of `--format md` without --full: under Jira's default limit of 32,767 (issue 38).
constexpr size_t kMarkdownBudget = 30000;

// `analyze --format text|json|md|html|jsonl|brief`.
void render_text(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                 std::ostream& out);
void render_json(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                 std::ostream& out);
void render_markdown(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                     std::ostream& out);
void render_html(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                 std::ostream& out);
// Timesketch: one JSON object per line per timeline event (message, datetime, timestamp_desc).
void render_jsonl(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                  std::ostream& out);
// The ticket reply (--brief): "In short" in at most five lines, one evidence line per finding
// behind the leading hypothesis (paths inside the bundle), the finding counts.
void render_brief(const Report& report, const EvidenceSet& evidence, const RenderOptions& opt,
                  std::ostream& out);
// `timeline` command: the timeline alone, as text.
void render_timeline_text(const Report& report, const EvidenceSet& evidence,
                          const RenderOptions& opt, std::ostream& out);

// Shared by renderers: pieces of the JSON report (json_report.cpp, json_verdict.cpp,
// json_timeline.cpp).
class JsonWriter;
void write_finding_json(JsonWriter& w, const Finding& f);
void write_verdict_json(JsonWriter& w, const Verdict& v);
void write_timeline_json(JsonWriter& w, const Timeline& t);

}  // namespace triage

namespace triage {
// `inventory`: every entry, its size, kind, why, line counts, and the unknown entries.
void render_inventory_text(const EvidenceSet& evidence, std::ostream& out);
void render_inventory_json(const EvidenceSet& evidence, std::ostream& out);
}  // namespace triage
