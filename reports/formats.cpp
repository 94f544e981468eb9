#include "reports/formats.h"

#include "reports/summary_report.h"

namespace triage {

const std::vector<ReportFormat>& report_formats() {
  static const std::vector<ReportFormat> formats = {
      {"text", "txt", render_text, "verdict first, bundle summary, findings with evidence, top timeline rows"},
      {"json", "json", render_json, "versioned schema: summary, verdict, findings, inventory, statistics, timeline"},
      {"md", "md", render_markdown, "for tickets: evidence as quoted excerpts with entry:line"},
      {"html", "html", render_html, "one self-contained offline file: verdict card, findings, SVG timeline"},
      {"jsonl", "jsonl", render_jsonl, "Timesketch events, one JSON object per line"},
      {"summary", "summary.json", render_summary, "compact per-node summary for ascend-triage fleet (schema ascend-triage-summary/1)"},
  };
  return formats;
}

const ReportFormat* find_report_format(std::string_view name) {
  for (const auto& f : report_formats())
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace triage
