#include <unistd.h>

#include <iostream>
#include <memory>

#include "ingest/load.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/timeline_subset.h"
#include "correlator/correlate.h"
#include "reports/formats.h"
#include "reports/redact.h"
#include "reports/render.h"

namespace triage::cli {

// `ascend-triage timeline PATH...`: the whole analysis runs (findings are linked to their
// evidence rows), but only the timeline is printed: text, the JSON timeline section, or jsonl.
Command add_timeline_command(CLI::App& app, GlobalOptions& g) {
  struct Args {
    EvidenceRun run;
    std::string format = "text";
    int64_t pid = 0, device = 0, rank = 0;
    CLI::Option *pid_opt = nullptr, *device_opt = nullptr, *rank_opt = nullptr;
    std::string grep;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("timeline", "Print one UTC timeline across every source");
  add_evidence_run_options(*cmd, g, args->run, "the timeline",
                           "Bundle directories, archives or log files; - reads standard input",
                           "the text timeline says what was replaced at its top");
  std::vector<std::string> names;
  for (const auto& f : timeline_formats()) names.emplace_back(f.name);
  cmd->add_option("--format", args->format, "Output format")
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  add_timeline_filter_options(*cmd, g);
  args->pid_opt = cmd->add_option("--pid", args->pid, "Timeline: only events of this process id");
  args->device_opt = cmd->add_option("--device", args->device, "Timeline: only events of this device (logical id)");
  args->rank_opt = cmd->add_option(
      "--rank", args->rank,
      "Timeline: only events of the processes whose environment states this RANK (or RANK_ID), and of "
      "their DEVICE_ID for events without a pid");
  cmd->add_option("--grep", args->grep, "Timeline: only events whose message matches this RE2 pattern");

  auto run = [args](const GlobalOptions& g) {
    EvidenceRun& r = args->run;
    if (!r.open(g)) return kExitCannotAnalyse;
    RenderOptions render;
    Report report = correlate(r.loaded.evidence, r.options);
    TimelineSubset subset;
    if (args->pid_opt->count()) subset.pid = args->pid;
    if (args->device_opt->count()) subset.device = args->device;
    if (args->rank_opt->count()) subset.rank = args->rank;
    subset.grep = args->grep;
    if (std::string why = apply_timeline_subset(subset, r.loaded.evidence, report.timeline); !why.empty()) {
      std::cerr << "ascend-triage timeline: " << why << '\n';
      return kExitCannotAnalyse;
    }
    if (r.redact) render.redaction_note = redact_for_public(report, r.loaded.evidence);
    for (const auto& f : timeline_formats())
      if (f.name == args->format) f.render(report, r.loaded.evidence, render, *r.out);
    warn_undated_jsonl(report, args->format);
    return report.has_warning_or_above() ? kExitFindings : kExitClean;
  };
  return {cmd, run};
}

}  // namespace triage::cli
