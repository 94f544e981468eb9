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
    std::vector<std::string> paths;
    std::string format = "text", output;
    bool redact = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("timeline", "Print one UTC timeline across every source");
  cmd->add_option("paths", args->paths,
                  "Bundle directories, archives or log files; - reads standard input")
      ->required();
  cmd->add_option("--format", args->format, "Output format")
      ->check(CLI::IsMember({"text", "json", "jsonl"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "Write the timeline to FILE instead of stdout");
  cmd->add_flag("--redact", args->redact,
                "Replace host names, IP addresses, user names, home paths, e-mail and MAC addresses with "
                "pseudonyms, as analyze --redact does (for a public thread)");
  add_limit_options(*cmd, g);
  add_stdin_name_option(*cmd, g);
  add_timeline_filter_options(*cmd, g);

  auto run = [args](const GlobalOptions& g) {
    AnalyzeOptions options;
    if (!build_analyze_options(g, options)) return kExitCannotAnalyse;
    LoadResult loaded;
    if (!load_for_analysis(args->paths, options, g.quiet, loaded)) return kExitCannotAnalyse;
    OutputFile file;
    std::ostream* out = open_output(args->output, file);
    if (!out) return kExitCannotAnalyse;
    RenderOptions render;
    Report report = correlate(loaded.evidence, options);
    if (args->redact) render.redaction_note = redact_for_public(report, loaded.evidence);
    if (args->format == "json") {
      JsonWriter w(*out);
      write_timeline_json(w, report.timeline);
      *out << '\n';
    } else if (args->format == "jsonl") {
      render_jsonl(report, loaded.evidence, render, *out);
    } else {
      render_timeline_text(report, loaded.evidence, render, *out);
    }
    return report.has_warning_or_above() ? kExitFindings : kExitClean;
  };
  return {cmd, run};
}

}  // namespace triage::cli
