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
    EvidenceRun run;
    std::string format{report_formats().front().name};
    bool brief = false;                // --brief: --format brief
    bool full = false;                 // --full: no ticket budget, every finding in full
    CLI::Option* format_opt = nullptr; // to tell an explicit --format from the default
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("analyze", "Analyse bundles, archives, log directories or files");
  cmd->alias("analyse");  // the help's own spelling
  add_evidence_run_options(*cmd, g, args->run, "the report",
                           "Bundle directories, archives or log files (one evidence set); - reads standard input",
                           "the report says what was replaced at its top");
  std::vector<std::string> names;
  for (const auto& f : report_formats()) names.emplace_back(f.name);
  args->format_opt = cmd->add_option("--format", args->format, "Output format (ascend-triage formats lists them)")
                         ->transform(format_spellings())
                         ->check(CLI::IsMember(names))
                         ->capture_default_str();
  cmd->add_flag("--brief", args->brief, "The ticket reply: the same as --format brief");
  cmd->add_flag("--full", args->full,
                "Every finding and evidence line in full: md is otherwise cut to fit a ticket (30,000 "
                "characters, with a note of what was left out) and findings at info are one line each");
  add_timeline_filter_options(*cmd, g);

  auto run = [args](const GlobalOptions& g) {
    EvidenceRun& r = args->run;
    if (args->brief && args->format_opt->count() && args->format != "brief") {
      std::cerr << "ascend-triage: --brief is --format brief; it cannot be given with --format " << args->format
                << '\n';
      return kExitCannotAnalyse;
    }
    if (args->brief) args->format = "brief";
    if (!r.open(g)) return kExitCannotAnalyse;
    RenderOptions render;
    render.color = r.output.empty() && want_color(g.color, STDOUT_FILENO);
    render.full = args->full;
    render.knowledge_dir = g.knowledge_dir;
    Report report = correlate(r.loaded.evidence, r.options);
    if (r.redact) render.redaction_note = redact_for_public(report, r.loaded.evidence);
    find_report_format(args->format)->render(report, r.loaded.evidence, render, *r.out);
    warn_undated_jsonl(report, args->format);
    return report.has_warning_or_above() ? kExitFindings : kExitClean;
  };
  return {cmd, run};
}

}  // namespace triage::cli
