#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "ingest/load.h"
#include "ingest/registry.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "reports/redact.h"
#include "reports/render.h"

namespace triage::cli {

namespace {

void print_kinds(std::ostream& out) {
  for (int k = 0; k < static_cast<int>(SourceKind::count_); ++k) {
    auto kind = static_cast<SourceKind>(k);
    out << fmt::format("{:<24} {}\n", to_string(kind), describe_kind(kind));
  }
}

bool warning_or_above(const EvidenceSet& evidence) {
  for (const auto& b : evidence.bundles)
    for (const auto& f : b.input_findings)
      if (f.severity >= Severity::warning) return true;
  return false;
}

}  // namespace

// Exit codes as analyze: 0 read, nothing at warning or above; 1 input findings at warning or
// above (damage, limits); 2 unreadable input or nothing recognised (the list is still printed).
Command add_inventory_command(CLI::App& app, GlobalOptions& g) {
  struct Args {
    std::vector<std::string> paths;
    std::string format = "text", output;
    bool kinds = false, redact = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("inventory", "List every entry, its kind and why, and its line counts");
  cmd->add_option("paths", args->paths, "Bundle directories, archives or log files; - reads standard input");
  cmd->add_option("--format", args->format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "Write to FILE instead of stdout");
  cmd->add_flag("--kinds", args->kinds, "List the source kinds and what each one is");
  add_redact_flag(*cmd, args->redact, "the sentence saying what was replaced goes to stderr");
  add_limit_options(*cmd, g);
  add_stdin_name_option(*cmd, g);

  auto run = [args](const GlobalOptions& g) {
    if (args->kinds) {
      print_kinds(std::cout);
      return kExitClean;
    }
    if (args->paths.empty()) {
      std::cerr << "ascend-triage inventory: give at least one PATH (or --kinds)\n";
      return kExitCannotAnalyse;
    }
    AnalyzeOptions options;
    if (!build_analyze_options(g, options)) return kExitCannotAnalyse;
    LoadResult loaded;
    if (!load_inputs(args->paths, options, g.quiet, loaded)) return kExitCannotAnalyse;
    if (args->redact) std::cerr << "ascend-triage: " << redact_inventory(loaded.evidence) << '\n';
    OutputFile file;
    std::ostream* out = open_output(args->output, file);
    if (!out) return kExitCannotAnalyse;
    if (args->format == "json") render_inventory_json(loaded.evidence, *out);
    else render_inventory_text(loaded.evidence, *out);
    if (!loaded.recognised_any) {
      std::cerr << "ascend-triage: no recognised evidence in the given input\n";
      return kExitCannotAnalyse;
    }
    return warning_or_above(loaded.evidence) ? kExitFindings : kExitClean;
  };
  return {cmd, run};
}

}  // namespace triage::cli
