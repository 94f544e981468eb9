#include <unistd.h>

#include <iostream>
#include <memory>

#include "ingest/load.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "correlator/correlate.h"
#include "reports/formats.h"
#include "reports/redact.h"

namespace triage::cli {

Command add_analyze_command(CLI::App& app, GlobalOptions& g) {
  struct Args {
    std::vector<std::string> paths;
    std::string format{report_formats().front().name}, output;
    bool redact = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("analyze", "Analyse bundles, archives, log directories or files");
  cmd->add_option("paths", args->paths,
                  "Bundle directories, archives or log files (one evidence set); - reads "
                  "standard input")
      ->required();
  std::vector<std::string> names;
  for (const auto& f : report_formats()) names.emplace_back(f.name);
  cmd->add_option("--format", args->format, "Output format (ascend-triage formats lists them)")
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "Write the report to FILE instead of stdout");
  cmd->add_flag("--redact", args->redact,
                "Replace host names, IP addresses, user names and home paths with pseudonyms "
                "(for a public thread)");
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
    render.color = args->output.empty() && want_color(g.color, STDOUT_FILENO);
    Report report = correlate(loaded.evidence, options);
    if (args->redact) render.redaction_note = redact_for_public(report, loaded.evidence);
    find_report_format(args->format)->render(report, loaded.evidence, render, *out);
    return report.has_warning_or_above() ? kExitFindings : kExitClean;
  };
  return {cmd, run};
}

}  // namespace triage::cli
