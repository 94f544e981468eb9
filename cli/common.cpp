#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "cli/commands.h"
#include "cli/output.h"
#include "knowledge/knowledge.h"
#include "model/timeline_lanes.h"
#include "cli/progress_meter.h"
#include "cli/zone_option.h"
#include "model/severity.h"
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

// An instant with a zone; a time without one is refused rather than read in the analyst's zone.
// A date alone (`2026-09-04`) is that UTC day: its first instant for --since, its last for
// --until.
bool parse_filter_time(const char* flag, const std::string& text, bool end_of_day,
                       std::optional<int64_t>& out) {
  if (text.empty()) return true;
  out = parse_iso8601_utc_us(text);
  if (out) return true;
  CivilTime day;
  if (text.size() == 10 && parse_civil_prefix(text + "T00:00:00", day) == 19 && day.valid()) {
    constexpr int64_t kDayUs = int64_t{86400} * 1000000;
    out = civil_to_epoch_us(day) + (end_of_day ? kDayUs - 1 : 0);
    return true;
  }
  std::cerr << "ascend-triage: " << flag << ": expected an ISO 8601 time with a zone or a UTC date, e.g. "
            << "2026-09-04T01:25:00Z, 2026-09-04T09:25:00+08:00 or 2026-09-04, got '" << text << "'\n";
  return false;
}

bool build_timeline_filter(const TimelineFilterArgs& a, TimelineFilter& f) {
  if (!parse_filter_time("--since", a.since, false, f.since_utc_us) ||
      !parse_filter_time("--until", a.until, true, f.until_utc_us))
    return false;
  if (f.since_utc_us && f.until_utc_us && *f.since_utc_us > *f.until_utc_us) {
    std::cerr << "ascend-triage: --since is after --until\n";
    return false;
  }
  auto sev = parse_severity(a.min_severity);
  if (!sev) {
    std::cerr << "ascend-triage: --min-severity: expected info, warning, error or critical, got '"
              << a.min_severity << "'\n";
    return false;
  }
  f.min_severity = *sev;
  f.sources = a.sources;
  return true;
}

// CPUs this process may run on (a Slurm or container cpuset can be smaller than the machine).
int usable_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return CPU_COUNT(&set);
}

}  // namespace

bool build_analyze_options(const GlobalOptions& g, AnalyzeOptions& out) {
  out.limits = g.limits;
  const InputLimits& l = g.limits;
  constexpr uint64_t kMax = ~uint64_t{0};
  if (!limit_in_range("--max-total-bytes", l.max_total_bytes, 1, kMax) ||
      !limit_in_range("--max-entry-bytes", l.max_entry_bytes, 1, kMax) ||
      !limit_in_range("--max-entries", l.max_entries, 1, kMax) ||
      !limit_in_range("--max-listed-entries", l.max_listed_entries, 1, kMax) ||
      // The line buffer is allocated whole for each entry read line by line.
      !limit_in_range("--max-line-bytes", l.max_line_bytes, 16, uint64_t{1} << 30))
    return false;
  out.knowledge_dir = g.knowledge_dir;
  out.read_threads = g.threads > 0 ? g.threads : (usable_cpus() >= 2 ? 2 : 1);
  out.stdin_name = g.stdin_name;
  if (!g.utc_offset.empty()) {
    std::string error;
    if (!resolve_utc_offset(g.utc_offset, g.knowledge_dir, out, error)) {
      std::cerr << "ascend-triage: --utc-offset: " << error << "\n";
      return false;
    }
  }
  return build_timeline_filter(g.timeline, out.timeline);
}

void warn_undated_jsonl(const Report& report, std::string_view format) {
  if (format != "jsonl" || report.timeline.undated == 0) return;
  std::cerr << "ascend-triage: warning: " << report.timeline.undated
            << " line(s) that would be events are not in the JSONL: their time has no zone (give "
               "--utc-offset +08:00 or Asia/Shanghai) or is unusable\n";
}

// The lanes of docs/timeline.md; --source takes one or several, comma-separated or repeated.
void add_timeline_filter_options(CLI::App& cmd, GlobalOptions& g) {
  cmd.add_option("--since", g.timeline.since,
                 "Timeline: only events at or after this ISO 8601 time (Z or +HH:MM required) or UTC date");
  cmd.add_option("--until", g.timeline.until,
                 "Timeline: only events at or before this ISO 8601 time (Z or +HH:MM required) or UTC date");
  cmd.add_option("--source", g.timeline.sources, "Timeline: only these lanes (comma-separated)")
      ->delimiter(',')
      ->check(CLI::IsMember(std::vector<std::string>(kTimelineLanes.begin(), kTimelineLanes.end())));
  cmd.add_option("--min-severity", g.timeline.min_severity,
                 "Timeline: only events at or above info, warning, error or critical")
      ->check(CLI::IsMember({"info", "warning", "error", "critical"}))
      ->capture_default_str();
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
  cmd.add_option("--max-listed-entries", g.limits.max_listed_entries,
                 "Past this many entries of one input, count the entries that add no fact per "
                 "kind instead of listing them (default 20000)");
  cmd.add_option("--max-line-bytes", g.limits.max_line_bytes,
                 "Cut longer lines and count them malformed (default 1M)")
      ->transform(CLI::AsSizeValue(false));
  cmd.add_option("--threads", g.threads,
                 "1: read and parse on one thread; 2: read, decompress and hash on a second one "
                 "(default 2 where there are 2 CPUs; the report is the same)")
      ->check(CLI::Range(1, 2));
}

void add_stdin_name_option(CLI::App& cmd, GlobalOptions& g) {
  cmd.add_option("--name", g.stdin_name,
                 "Name of standard input (PATH -) in evidence; a file name also guides its "
                 "classification")
      ->capture_default_str();
}

bool load_inputs(const std::vector<std::string>& paths, const AnalyzeOptions& options, bool quiet,
                 LoadResult& loaded) {
  if (std::count(paths.begin(), paths.end(), kStdinPath) > 1) {
    std::cerr << "ascend-triage: standard input (-) can be given only once\n";
    return false;
  }
  if (options.stdin_name.empty()) {
    std::cerr << "ascend-triage: --name must not be empty\n";
    return false;
  }
  // A paste typed into a terminal has no end until the user says so.
  if (!quiet && std::count(paths.begin(), paths.end(), kStdinPath) == 1 && isatty(STDIN_FILENO))
    std::cerr << "ascend-triage: reading standard input; paste the text, then press Ctrl-D\n";
  std::optional<ProgressMeter> meter;
  if (want_progress(quiet)) meter.emplace(STDERR_FILENO);
  loaded = load_evidence(paths, options, meter ? &*meter : nullptr);
  if (meter) meter->finish();
  for (const auto& e : loaded.errors) std::cerr << "ascend-triage: " << e << '\n';
  return loaded.errors.empty();
}

bool load_for_analysis(const std::vector<std::string>& paths, const AnalyzeOptions& options,
                       bool quiet, LoadResult& loaded) {
  if (!load_inputs(paths, options, quiet, loaded)) return false;
  if (!loaded.recognised_any) {
    std::cerr << "ascend-triage: no recognised evidence in the given input "
                 "(`ascend-triage inventory PATH` shows why each entry was not recognised)\n";
    return false;
  }
  return true;
}

}  // namespace triage::cli

namespace triage::cli {

void add_redact_flag(CLI::App& cmd, bool& redact, std::string_view where_said) {
  cmd.add_flag("--redact", redact,
               "Mask secrets (the collector's secret rules) and replace host names, IP, e-mail and MAC "
               "addresses and user names with pseudonyms, for a public thread (" +
                   std::string(where_said) + ")");
}

EvidenceRun::~EvidenceRun() = default;

bool EvidenceRun::open(const GlobalOptions& g) {
  if (!build_analyze_options(g, options)) return false;
  // A --knowledge file (or row) that did not load is named on every run, not only by
  // `knowledge check`: the run goes on without it.
  if (!options.knowledge_dir.empty())
    for (const auto& e : knowledge_for(options.knowledge_dir).errors)
      std::cerr << "ascend-triage: warning: --knowledge " << options.knowledge_dir << ": " << e << '\n';
  if (!load_for_analysis(paths, options, g.quiet, loaded)) return false;
  file = std::make_unique<OutputFile>();
  out = open_output(output, *file);
  return out != nullptr;
}

void add_evidence_run_options(CLI::App& cmd, GlobalOptions& g, EvidenceRun& run, std::string_view what,
                              std::string_view paths_help, std::string_view redact_where) {
  cmd.add_option("paths", run.paths, std::string(paths_help))->required();
  cmd.add_option("-o,--output", run.output, "Write " + std::string(what) + " to FILE instead of stdout");
  add_redact_flag(cmd, run.redact, redact_where);
  add_limit_options(cmd, g);
  add_stdin_name_option(cmd, g);
}

}  // namespace triage::cli
