#include <memory>

#include "cli/chain_input.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "reports/chain_render.h"

namespace triage::cli {

// `ascend-triage baseline BUNDLE -o FILE.json`: the bundle's execution chain as a baseline
// document (docs/diff.md, docs/schemas/baseline.schema.json) for a later `diff`.
Command add_baseline_command(CLI::App& app, GlobalOptions& g) {
  struct Args {
    std::string path, output;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("baseline", "Write a bundle's execution chain as a baseline JSON file for diff");
  cmd->add_option("bundle", args->path, "Bundle directory, archive or log directory")->required();
  cmd->add_option("-o,--output", args->output, "Write the baseline to FILE instead of stdout");
  add_limit_options(*cmd, g);

  auto run = [args](const GlobalOptions& g) {
    ChainInput in;
    if (!load_chain_input(args->path, g, false, false, in)) return kExitCannotAnalyse;
    OutputFile file;
    std::ostream* out = open_output(args->output, file);
    if (!out) return kExitCannotAnalyse;
    render_baseline_json(in.chain, *out);
    return kExitClean;
  };
  return {cmd, run};
}

}  // namespace triage::cli
