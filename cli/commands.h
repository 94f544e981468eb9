#pragma once
// Each subcommand lives in its own file and registers itself here; main.cpp only wires
// the global options and runs the chosen command.
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <ostream>
#include <string_view>
#include <string>
#include <vector>

#include "ingest/load.h"
#include "model/options.h"
#include "model/report.h"

namespace triage::cli {

constexpr int kExitClean = 0;
constexpr int kExitFindings = 1;      // also: a check failed (knowledge check)
constexpr int kExitCannotAnalyse = 2; // also: bad usage, unknown id

// --since/--until/--source/--min-severity as typed (analyze and timeline).
struct TimelineFilterArgs {
  std::string since, until, min_severity = "info";
  std::vector<std::string> sources;
};

struct GlobalOptions {
  std::string color = "auto";
  std::string utc_offset;
  std::string knowledge_dir;
  InputLimits limits;
  TimelineFilterArgs timeline;
  std::string stdin_name = "stdin";  // --name
  bool quiet = false;                // --quiet: no progress, no hints (errors still printed)
  int threads = 0;                   // --threads: 1 or 2; 0 picks 2 where there are 2 CPUs
};

// Runs after parsing; returns the exit code.
using CommandRunner = std::function<int(const GlobalOptions&)>;

struct Command {
  CLI::App* app;
  CommandRunner run;
};

Command add_analyze_command(CLI::App& app, GlobalOptions& g);
Command add_inventory_command(CLI::App& app, GlobalOptions& g);
Command add_knowledge_command(CLI::App& app, GlobalOptions& g);
Command add_explain_command(CLI::App& app, GlobalOptions& g);
Command add_timeline_command(CLI::App& app, GlobalOptions& g);
Command add_facts_command(CLI::App& app, GlobalOptions& g);
Command add_formats_command(CLI::App& app, GlobalOptions& g);
Command add_baseline_command(CLI::App& app, GlobalOptions& g);
Command add_diff_command(CLI::App& app, GlobalOptions& g);
Command add_fleet_command(CLI::App& app, GlobalOptions& g);
Command add_show_command(CLI::App& app, GlobalOptions& g);

// Helpers shared by commands.
// Loads the inputs (`-` is standard input, at most once); prints why and returns false when an
// input could not be read at all. `loaded` then still holds what was read.
// Progress is shown on a terminal unless `quiet`.
bool load_inputs(const std::vector<std::string>& paths, const AnalyzeOptions& options, bool quiet,
                 LoadResult& loaded);
// Loads the inputs for analyze/timeline/facts; prints why and returns false when nothing usable
// was read (unreadable input, or no recognised evidence at all: exit 2).
bool load_for_analysis(const std::vector<std::string>& paths, const AnalyzeOptions& options,
                       bool quiet, LoadResult& loaded);
bool build_analyze_options(const GlobalOptions& g, AnalyzeOptions& out);
bool want_color(const std::string& mode, int fd);
void add_limit_options(CLI::App& cmd, GlobalOptions& g);
void add_stdin_name_option(CLI::App& cmd, GlobalOptions& g);
void add_timeline_filter_options(CLI::App& cmd, GlobalOptions& g);
// `markdown` is accepted wherever `md` is (one spelling in the docs, both on the command line).
inline CLI::Transformer format_spellings() {
  CLI::Transformer t(std::map<std::string, std::string>{{"markdown", "md"}});
  t.description("");  // the help lists the formats once, as the check names them
  return t;
}
// JSONL holds only events with a UTC time: says on stderr how many lines it left out because
// their time stayed local (no zone in the input, no --utc-offset) or was unusable.
void warn_undated_jsonl(const Report& report, std::string_view format);
// --redact, worded the same on every subcommand that takes it; `where_said` ends the help: where
// the sentence saying what was replaced goes.
void add_redact_flag(CLI::App& cmd, bool& redact, std::string_view where_said);

// The inputs, -o and --redact of a subcommand that reads evidence and writes one output
// (analyze, timeline, facts), and the run's common first steps.
struct OutputFile;  // cli/output.h
struct EvidenceRun {
  std::vector<std::string> paths;
  std::string output;
  bool redact = false;
  // Filled by open(): the loaded inputs and where to write.
  AnalyzeOptions options;
  LoadResult loaded;
  std::unique_ptr<OutputFile> file;
  std::ostream* out = nullptr;
  // Builds the options, loads the inputs for analysis and opens -o; false (after a message)
  // when the run must end with kExitCannotAnalyse.
  bool open(const GlobalOptions& g);
  ~EvidenceRun();
};
// paths (required), -o FILE, --redact, the input limits and --name; `what` names the output
// in -o's help ("the report").
void add_evidence_run_options(CLI::App& cmd, GlobalOptions& g, EvidenceRun& run, std::string_view what,
                              std::string_view paths_help, std::string_view redact_where);

}  // namespace triage::cli
