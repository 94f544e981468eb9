#pragma once
// The report formats of `analyze --format`: one table that the CLI dispatches through,
// `ascend-triage formats` prints, and the golden scripts and the docs test read from there.
#include <ostream>
#include <string_view>
#include <vector>

#include "reports/render.h"

namespace triage {

using RenderFn = void (*)(const Report&, const EvidenceSet&, const RenderOptions&, std::ostream&);

struct ReportFormat {
  std::string_view name;       // the --format value
  std::string_view extension;  // of the file the goldens keep (tests/golden/*/report.EXT)
  RenderFn render;
  std::string_view description;  // one line, for `ascend-triage formats`
};

// In the order `formats` lists them; the first is the default.
const std::vector<ReportFormat>& report_formats();
// nullptr when no format has that name.
const ReportFormat* find_report_format(std::string_view name);

// The formats of `timeline --format` (extension and description as above): the timeline
// alone as text, the JSON report's `timeline` section, or Timesketch JSONL.
const std::vector<ReportFormat>& timeline_formats();

}  // namespace triage
