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

bool build_analyze_options(const GlobalOptions& g, AnalyzeOptions& out) {
  out.limits = g.limits;
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

}  // namespace triage::cli
