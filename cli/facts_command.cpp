#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/output.h"
#include "correlator/facts_listing.h"
#include "reports/redact.h"

namespace triage::cli {

// `ascend-triage facts PATH...`: the facts the readers extracted, one per line as
// `key=value<TAB>entry:line` (docs/cli.md). No analysis runs.
Command add_facts_command(CLI::App& app, GlobalOptions& g) {
  struct Args {
    std::vector<std::string> paths;
    std::string output;
    bool redact = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("facts", "Print the facts extracted from the inputs, one per line");
  cmd->add_option("paths", args->paths,
                  "Bundle directories, archives or log files; - reads standard input")
      ->required();
  cmd->add_option("-o,--output", args->output, "Write the facts to FILE instead of stdout");
  cmd->add_flag("--redact", args->redact,
                "Mask secrets and replace host, user names and addresses with pseudonyms, as analyze --redact "
                "does (the sentence saying what was replaced goes to stderr)");
  add_limit_options(*cmd, g);
  add_stdin_name_option(*cmd, g);

  auto run = [args](const GlobalOptions& g) {
    AnalyzeOptions options;
    if (!build_analyze_options(g, options)) return kExitCannotAnalyse;
    LoadResult loaded;
    if (!load_for_analysis(args->paths, options, g.quiet, loaded)) return kExitCannotAnalyse;
    OutputFile file;
    std::ostream* out = open_output(args->output, file);
    if (!out) return kExitCannotAnalyse;
    std::vector<std::vector<FactRow>> rows;
    for (const auto& b : loaded.evidence.bundles) rows.push_back(list_facts(b));
    if (args->redact) {
      Redactor r;
      learn_names(r, loaded.evidence);
      for (int pass = 0; pass < 2; ++pass)  // learn every name first, then replace
        for (auto& bundle : rows)
          for (auto& row : bundle)
            for (std::string* s : {&row.key, &row.value, &row.entry}) {
              if (pass == 0) {
                r.discover_users(*s);
                r.discover_hosts(*s);
              } else {
                r.apply(*s);
              }
            }
      std::cerr << "ascend-triage: " << r.note() << '\n';
    }
    for (const auto& bundle : rows) print_fact_rows(bundle, *out);
    return kExitClean;
  };
  return {cmd, run};
}

}  // namespace triage::cli
