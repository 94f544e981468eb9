#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/output.h"
#include "correlator/summaries/facts_listing.h"
#include "reports/redact.h"

namespace triage::cli {

// `ascend-triage facts PATH...`: the facts the readers extracted, one per line as
// `key=value<TAB>entry:line` (docs/cli.md). No analysis runs.
Command add_facts_command(CLI::App& app, GlobalOptions& g) {
  auto args = std::make_shared<EvidenceRun>();
  auto* cmd = app.add_subcommand("facts", "Print the facts extracted from the inputs, one per line");
  add_evidence_run_options(*cmd, g, *args, "the facts",
                           "Bundle directories, archives or log files; - reads standard input",
                           "the sentence saying what was replaced goes to stderr");

  auto run = [args](const GlobalOptions& g) {
    EvidenceRun& r = *args;
    if (!r.open(g)) return kExitCannotAnalyse;
    std::vector<std::vector<FactRow>> rows;
    for (const auto& b : r.loaded.evidence.bundles) rows.push_back(list_facts(b));
    if (r.redact) {
      Redactor redactor;
      learn_names(redactor, r.loaded.evidence);
      for (int pass = 0; pass < 2; ++pass)  // learn every name first, then replace
        for (auto& bundle : rows)
          for (auto& row : bundle)
            for (std::string* s : {&row.key, &row.value, &row.entry}) {
              if (pass == 0) redactor.learn(*s);
              else redactor.apply(*s);
            }
      std::cerr << "ascend-triage: " << redactor.note() << '\n';
    }
    for (const auto& bundle : rows) print_fact_rows(bundle, *r.out);
    return kExitClean;
  };
  return {cmd, run};
}

}  // namespace triage::cli
