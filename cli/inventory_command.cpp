#include <iostream>
#include <memory>

#include "bundle/load.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "reports/render.h"

namespace triage::cli {

Command add_inventory_command(CLI::App& app, GlobalOptions& g) {
  struct Args {
    std::vector<std::string> paths;
    std::string format = "text", output;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("inventory", "List every entry, its kind and why");
  cmd->add_option("paths", args->paths, "Bundle directories, archives or log files")->required();
  cmd->add_option("--format", args->format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "Write to FILE instead of stdout");
  add_limit_options(*cmd, g);

  auto run = [args](const GlobalOptions& g) {
    AnalyzeOptions options;
    if (!build_analyze_options(g, options)) return kExitCannotAnalyse;
    LoadResult loaded = load_evidence(args->paths, options);
    for (const auto& e : loaded.errors) std::cerr << "ascend-triage: " << e << '\n';
    if (!loaded.errors.empty()) return kExitCannotAnalyse;
    std::ofstream file;
    std::ostream* out = open_output(args->output, file);
    if (!out) return kExitCannotAnalyse;
    if (args->format == "json") render_inventory_json(loaded.evidence, *out);
    else render_inventory_text(loaded.evidence, *out);
    return loaded.recognised_any ? kExitClean : kExitCannotAnalyse;
  };
  return {cmd, run};
}

}  // namespace triage::cli
