// ascend-triage: command line. Thin: global options, one file per subcommand, exit codes
// per docs/cli.md (0 clean, 1 findings at warning or above, 2 could not analyse).
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <new>
#include <vector>

#include "cli/commands.h"
#include "cli/suggest.h"
#include "reports/safe_output.h"

int main(int argc, char** argv) {
  using namespace triage::cli;
  // Every byte printed goes through the output guard (docs/security.md): no bundle text can
  // drive the terminal, whichever subcommand or message printed it. Restored before the
  // guards go, so nothing is written through a guard that no longer exists.
  triage::SafeOutputBuf out_guard(std::cout.rdbuf()), err_guard(std::cerr.rdbuf());
  std::streambuf* out_raw = std::cout.rdbuf(&out_guard);
  std::streambuf* err_raw = std::cerr.rdbuf(&err_guard);
  struct Restore {
    std::streambuf *out, *err;
    ~Restore() {
      std::cout.flush();
      std::cerr.flush();
      std::cout.rdbuf(out);
      std::cerr.rdbuf(err);
    }
  } restore{out_raw, err_raw};
  CLI::App app{"ascend-triage: offline triage of Ascend NPU hang and timeout bundles"};
  app.set_version_flag("--version", std::string("ascend-triage ") + ASCEND_TRIAGE_VERSION);
  app.require_subcommand(1);
  app.fallthrough();  // global options may follow the subcommand
  GlobalOptions g;
  app.add_option("--color", g.color, "Colour: auto (a TTY and no NO_COLOR), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_option("--utc-offset", g.utc_offset,
                 "Zone of loose logs whose zone is unknown, e.g. +08:00 or Asia/Shanghai (said so in the report)");
  app.add_option("--knowledge", g.knowledge_dir, "Use knowledge files from DIR");
  app.add_flag("-q,--quiet", g.quiet,
               "No progress line on a terminal and no hints on stderr (errors are still printed)");

  // One line per subcommand.
  std::vector<Command> commands;
  commands.push_back(add_analyze_command(app, g));
  commands.push_back(add_inventory_command(app, g));
  commands.push_back(add_knowledge_command(app, g));
  commands.push_back(add_explain_command(app, g));
  commands.push_back(add_timeline_command(app, g));
  commands.push_back(add_facts_command(app, g));
  commands.push_back(add_formats_command(app, g));
  commands.push_back(add_baseline_command(app, g));
  commands.push_back(add_diff_command(app, g));
  commands.push_back(add_fleet_command(app, g));
  commands.push_back(add_show_command(app, g));
  // After the subcommands, so their own --help does not repeat it.
  // help2man makes the "Examples:" and "Exit status:" paragraphs sections of the man page.
  app.footer(
      "Examples:\n"
      "  ascend-triage analyze ascend-bundle-node07.tar.zst\n"
      "  ascend-triage analyze --brief ticket-paste.txt\n"
      "  xclip -o | ascend-triage analyze -\n"
      "  ascend-triage --utc-offset Asia/Shanghai timeline --since 2026-09-04 logs/\n"
      "  ascend-triage explain collective/wait-timeout\n"
      "\n"
      "Exit status:\n"
      "  0  analysed, nothing at warning or above (knowledge check: passed; explain: found)\n"
      "  1  analysed, findings at warning or above (knowledge check: a check failed;\n"
      "     diff: something differs)\n"
      "  2  could not analyse: bad usage, an input that cannot be opened, no recognised\n"
      "     evidence, an unknown id");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    if (code != 0) suggest_after_parse_error(app, argc, argv);
    return code == 0 ? kExitClean : kExitCannotAnalyse;
  }
  for (const auto& c : commands) {
    if (!c.app->parsed()) continue;
    // Never an abort: out of memory (a bundle larger than this machine can hold, or a
    // --max-* limit set too high) or any other failure ends with a message and exit 2.
    try {
      return c.run(g);
    } catch (const std::bad_alloc&) {
      std::cerr << "ascend-triage: out of memory: the inputs need more memory than this process "
                   "may use (lower --max-total-bytes or --max-entry-bytes, or analyse the "
                   "entries in parts)\n";
    } catch (const std::exception& e) {
      std::cerr << "ascend-triage: internal error: " << e.what() << "\n";
    }
    return kExitCannotAnalyse;
  }
  return kExitCannotAnalyse;
}
