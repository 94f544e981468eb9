#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "cli/commands.h"
#include "model/time.h"

namespace triage::cli {

bool want_color(const std::string& mode, int fd) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  return isatty(fd) && !(no_color && *no_color);
}

namespace {

bool limit_in_range(const char* flag, uint64_t value, uint64_t low, uint64_t high) {
  if (value >= low && value <= high) return true;
  std::cerr << "ascend-triage: " << flag << " must be between " << low << " and " << high << ", got "
            << value << '\n';
  return false;
}

}  // namespace

bool build_analyze_options(const GlobalOptions& g, AnalyzeOptions& out) {
  out.limits = g.limits;
  const InputLimits& l = g.limits;
  constexpr uint64_t kMax = ~uint64_t{0};
  if (!limit_in_range("--max-total-bytes", l.max_total_bytes, 1, kMax) ||
      !limit_in_range("--max-entry-bytes", l.max_entry_bytes, 1, kMax) ||
      !limit_in_range("--max-entries", l.max_entries, 1, kMax) ||
      // The line buffer is allocated whole for each entry read line by line.
      !limit_in_range("--max-line-bytes", l.max_line_bytes, 16, uint64_t{1} << 30))
    return false;
  out.knowledge_dir = g.knowledge_dir;
  if (!g.utc_offset.empty()) {
    auto zone = ZoneRule::from_offset_text(g.utc_offset);
    if (!zone) {
      std::cerr << "ascend-triage: --utc-offset: expected +HH:MM, +HHMM or UTC, got '"
                << g.utc_offset << "'\n";
      return false;
    }
    out.utc_offset_seconds = zone->offset_at_utc(0);
  }
  return true;
}

// Sizes accept binary suffixes: 512k, 64M, 32G (k = 1024).
void add_limit_options(CLI::App& cmd, GlobalOptions& g) {
  cmd.add_option("--max-total-bytes", g.limits.max_total_bytes,
                 "Stop reading after this many decompressed bytes of all inputs (default 32G)")
      ->transform(CLI::AsSizeValue(false));
  cmd.add_option("--max-entry-bytes", g.limits.max_entry_bytes,
                 "Read at most this many decompressed bytes of one entry (default 4G)")
      ->transform(CLI::AsSizeValue(false));
  cmd.add_option("--max-entries", g.limits.max_entries,
                 "Read at most this many entries of all inputs (default 1000000)");
  cmd.add_option("--max-line-bytes", g.limits.max_line_bytes,
                 "Cut longer lines and count them malformed (default 1M)")
      ->transform(CLI::AsSizeValue(false));
}

}  // namespace triage::cli
