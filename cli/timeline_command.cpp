#include <unistd.h>

#include <iostream>
#include <memory>

#include "ingest/load.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "correlator/correlate.h"
#include "reports/json_writer.h"
#include "reports/redact.h"
#include "reports/render.h"

namespace triage::cli {

// `ascend-triage timeline PATH...`: the whole analysis runs (findings are linked to their
// evidence rows), but only the timeline is printed: text, the JSON timeline section, or jsonl.
Command add_timeline_command(CLI::App& app, GlobalOptions& g) {
  struct Args {
    EvidenceRun run;
    std::string format = "text";
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("timeline", "Print one UTC timeline across every source");
  add_evidence_run_options(*cmd, g, args->run, "the timeline",
                           "Bundle directories, archives or log files; - reads standard input",
                           "the text timeline says what was replaced at its top");
  cmd->add_option("--format", args->format, "Output format")
      ->check(CLI::IsMember({"text", "json", "jsonl"}))
      ->capture_default_str();
  add_timeline_filter_options(*cmd, g);

  auto run = [args](const GlobalOptions& g) {
    EvidenceRun& r = args->run;
    if (!r.open(g)) return kExitCannotAnalyse;
    RenderOptions render;
    Report report = correlate(r.loaded.evidence, r.options);
    if (r.redact) render.redaction_note = redact_for_public(report, r.loaded.evidence);
    std::ostream& out = *r.out;
    if (args->format == "json") {
      JsonWriter w(out);
      write_timeline_json(w, report.timeline);
      out << '\n';
    } else if (args->format == "jsonl") {
      render_jsonl(report, r.loaded.evidence, render, out);
    } else {
      render_timeline_text(report, r.loaded.evidence, render, out);
    }
    return report.has_warning_or_above() ? kExitFindings : kExitClean;
  };
  return {cmd, run};
}

}  // namespace triage::cli
