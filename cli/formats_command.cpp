// `formats`: the report formats of `analyze --format`, one per line as
// name<TAB>extension<TAB>description, from the one table (reports/formats.cpp). The golden
// scripts and the docs test read this list instead of keeping their own.
#include <iostream>

#include "cli/commands.h"
#include "reports/formats.h"

namespace triage::cli {

Command add_formats_command(CLI::App& app, GlobalOptions&) {
  auto* cmd = app.add_subcommand(
      "formats", "List the report formats of analyze --format (name, file extension, description)");
  auto run = [](const GlobalOptions&) {
    for (const auto& f : report_formats())
      std::cout << f.name << '\t' << f.extension << '\t' << f.description << '\n';
    return kExitClean;
  };
  return {cmd, run};
}

}  // namespace triage::cli
