#include "reports/formats.h"

#include "reports/json_writer.h"
#include "reports/summary_report.h"

namespace triage {

const std::vector<ReportFormat>& report_formats() {
  static const std::vector<ReportFormat> formats = {
      {"text", "txt", render_text, "verdict first, bundle summary, findings with evidence, top timeline rows"},
      {"json", "json", render_json, "versioned schema: summary, verdict, findings, inventory, statistics, timeline"},
      {"md", "md", render_markdown, "for tickets: evidence as quoted excerpts with entry:line"},
      {"html", "html", render_html, "one self-contained offline file: verdict card, findings, SVG timeline"},
      {"jsonl", "jsonl", render_jsonl, "Timesketch events, one JSON object per line"},
      {"brief", "brief.txt", render_brief, "the ticket reply: In short in five lines, evidence paths inside the bundle, counts"},
      {"summary", "summary.json", render_summary, "compact per-node summary for ascend-triage fleet (schema ascend-triage-summary/1)"},
  };
  return formats;
}

namespace {
void render_timeline_json(const Report& report, const EvidenceSet&, const RenderOptions&, std::ostream& out) {
  JsonWriter w(out);
  write_timeline_json(w, report.timeline);
  out << '\n';
}
}  // namespace

const std::vector<ReportFormat>& timeline_formats() {
  static const std::vector<ReportFormat> formats = {
      {"text", "txt", render_timeline_text, "the timeline's rows, oldest first"},
      {"json", "json", render_timeline_json, "the JSON report's timeline section"},
      {"jsonl", "jsonl", render_jsonl, "Timesketch events, one JSON object per line"},
  };
  return formats;
}

const ReportFormat* find_report_format(std::string_view name) {
  for (const auto& f : report_formats())
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace triage
