// ascend-triage: command line. Thin: parses options, calls the library, maps exit codes
// (docs/cli.md): 0 analysed, nothing at warning or above; 1 findings at warning or above;
// 2 could not analyse (bad usage, unreadable input, no recognised evidence).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "bundle/load.h"
#include "correlator/correlate.h"
#include "model/time.h"
#include "reports/render.h"

namespace {

constexpr int kExitClean = 0;
constexpr int kExitFindings = 1;
constexpr int kExitCannotAnalyse = 2;

struct GlobalOptions {
  std::string color = "auto";
  std::string utc_offset;
  std::string knowledge_dir;
  triage::InputLimits limits;
};

bool want_color(const std::string& mode, int fd) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  return isatty(fd) && !(no_color && *no_color);
}

bool build_options(const GlobalOptions& g, triage::AnalyzeOptions& out) {
  out.limits = g.limits;
  out.knowledge_dir = g.knowledge_dir;
  if (!g.utc_offset.empty()) {
    auto zone = triage::ZoneRule::from_offset_text(g.utc_offset);
    if (!zone) {
      std::cerr << "ascend-triage: --utc-offset: expected +HH:MM, +HHMM or UTC, got '"
                << g.utc_offset << "'\n";
      return false;
    }
    out.utc_offset_seconds = zone->offset_at_utc(0);
  }
  return true;
}

// Opens -o FILE or stdout.
std::ostream* open_output(const std::string& path, std::ofstream& file) {
  if (path.empty() || path == "-") return &std::cout;
  file.open(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    std::cerr << "ascend-triage: cannot write " << path << '\n';
    return nullptr;
  }
  return &file;
}

triage::LoadResult load_or_report(const std::vector<std::string>& paths,
                                  const triage::AnalyzeOptions& options, int& exit_code) {
  triage::LoadResult loaded = triage::load_evidence(paths, options);
  for (const auto& e : loaded.errors) std::cerr << "ascend-triage: " << e << '\n';
  exit_code = loaded.errors.empty() ? kExitClean : kExitCannotAnalyse;
  return loaded;
}

void add_limit_options(CLI::App& cmd, GlobalOptions& g) {
  cmd.add_option("--max-total-bytes", g.limits.max_total_bytes,
                 "Stop reading after this many decompressed bytes in all (default 32 GiB)");
  cmd.add_option("--max-entry-bytes", g.limits.max_entry_bytes,
                 "Read at most this many decompressed bytes of one entry (default 4 GiB)");
  cmd.add_option("--max-entries", g.limits.max_entries,
                 "Read at most this many entries in all (default 1000000)");
  cmd.add_option("--max-line-bytes", g.limits.max_line_bytes,
                 "Cut longer lines and count them malformed (default 1 MiB)");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ascend-triage: offline triage of Ascend NPU hang and timeout bundles"};
  app.set_version_flag("--version", std::string("ascend-triage ") + ASCEND_TRIAGE_VERSION);
  app.require_subcommand(1);
  GlobalOptions g;
  app.add_option("--color", g.color, "Colour: auto (a TTY and no NO_COLOR), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_option("--utc-offset", g.utc_offset,
                 "Zone of loose logs whose zone is unknown, e.g. +08:00 (said so in the report)");
  app.add_option("--knowledge", g.knowledge_dir, "Use knowledge files from DIR");

  std::vector<std::string> paths;
  std::string format = "text", output;

  auto* analyze = app.add_subcommand("analyze", "Analyse bundles, archives, log directories or files");
  analyze->add_option("paths", paths, "Bundle directories, archives or log files (one evidence set)")
      ->required();
  analyze->add_option("--format", format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  analyze->add_option("-o,--output", output, "Write the report to FILE instead of stdout");
  add_limit_options(*analyze, g);

  auto* inventory = app.add_subcommand("inventory", "List every entry, its kind and why");
  inventory->add_option("paths", paths, "Bundle directories, archives or log files")->required();
  inventory->add_option("--format", format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  inventory->add_option("-o,--output", output, "Write to FILE instead of stdout");
  add_limit_options(*inventory, g);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitClean : kExitCannotAnalyse;
  }

  triage::AnalyzeOptions options;
  if (!build_options(g, options)) return kExitCannotAnalyse;
  std::ofstream file;
  std::ostream* out = open_output(output, file);
  if (!out) return kExitCannotAnalyse;
  triage::RenderOptions render;
  render.color = output.empty() && want_color(g.color, STDOUT_FILENO);

  int rc = kExitClean;
  triage::LoadResult loaded = load_or_report(paths, options, rc);
  if (rc != kExitClean) return rc;

  if (*inventory) {
    if (format == "json") triage::render_inventory_json(loaded.evidence, *out);
    else triage::render_inventory_text(loaded.evidence, *out);
    return loaded.recognised_any ? kExitClean : kExitCannotAnalyse;
  }

  if (!loaded.recognised_any) {
    std::cerr << "ascend-triage: no recognised evidence in the given input\n";
    return kExitCannotAnalyse;
  }
  triage::Report report = triage::correlate(loaded.evidence, options);
  if (format == "json") triage::render_json(report, loaded.evidence, render, *out);
  else triage::render_text(report, loaded.evidence, render, *out);
  return report.has_warning_or_above() ? kExitFindings : kExitClean;
}
