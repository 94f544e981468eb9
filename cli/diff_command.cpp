#include <memory>

#include "cli/chain_input.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "compare/chain_diff.h"
#include "knowledge/version_tables.h"
#include "reports/chain_render.h"
#include "reports/redact.h"

namespace triage::cli {

// `ascend-triage diff BASELINE CURRENT` (docs/diff.md): what changed along the execution
// chain; exit 0 when nothing differs, 1 when something does, 2 when an input cannot be read.
Command add_diff_command(CLI::App& app, GlobalOptions& g) {
  struct Args {
    std::string baseline, current, format = "text", output;
    bool redact = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("diff", "Compare the execution chain of two bundles or baselines");
  cmd->add_option("baseline", args->baseline, "The host that worked: a bundle or a baseline file")->required();
  cmd->add_option("current", args->current, "The host to explain: a bundle or a baseline file")->required();
  cmd->add_option("--format", args->format, "Output format")
      ->transform(format_spellings())
      ->check(CLI::IsMember({"text", "md", "json"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "Write the diff to FILE instead of stdout");
  add_redact_flag(*cmd, args->redact, "the diff's notes say what was replaced");
  add_limit_options(*cmd, g);

  auto run = [args](const GlobalOptions& g) {
    ChainInput base, cur;
    if (!load_chain_input(args->baseline, g, false, true, base)) return kExitCannotAnalyse;
    if (!load_chain_input(args->current, g, true, true, cur)) return kExitCannotAnalyse;
    ChainDiff d = diff_chains(base.chain, cur.chain, cur.findings, version_tables_for(g.knowledge_dir));
    d.baseline = args->baseline;
    d.current = args->current;
    d.baseline_kind = base.is_baseline ? "baseline file" : "bundle";
    d.current_kind = cur.is_baseline ? "baseline file" : "bundle";
    d.baseline_host = base.chain.host;
    d.current_host = cur.chain.host;
    if (cur.is_baseline)
      d.notes.push_back("CURRENT is a baseline file: no findings to cite; breaking comes from the version tables only");
    if (args->redact) d.notes.push_back(redact_chain_diff(d));
    OutputFile file;
    std::ostream* out = open_output(args->output, file);
    if (!out) return kExitCannotAnalyse;
    render_chain_diff(d, args->format, *out);
    return d.changes.empty() ? kExitClean : kExitFindings;
  };
  return {cmd, run};
}

}  // namespace triage::cli
