#pragma once
// The pieces of `analyze --format md` (markdown_report.cpp assembles them within the ticket
// budget; markdown_findings.cpp writes the findings). Internal to reports/.
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "model/report.h"
#include "reports/evidence_path.h"

namespace triage::md {

constexpr size_t kAll = std::numeric_limits<size_t>::max();

// How much of each part a rendering shows: everything (--full), or what fits a ticket.
struct Limits {
  size_t evidence = kAll;        // evidence lines quoted per finding (and as many same-failure lines)
  bool info_in_full = true;      // findings at info in full inside their folded section, or one line each
  size_t detailed = kAll;        // findings above info shown in full; those after them get one line each
  size_t timeline_rows = 30;     // the most severe events; `ascend-triage timeline` has all
  size_t list_items = kAll;      // per list of a bundle section (not collected, tool errors, notes)
  size_t prose = kAll;           // bytes of one prose field (observed, supports, ...)
};

// What a rendering left out compared with --full, for the note at the top.
struct Cuts {
  size_t evidence = 0;        // evidence lines not quoted
  size_t info_short = 0;      // findings at info shown as one line
  size_t findings_short = 0;  // findings above info shown as one line
  size_t timeline = 0;        // timeline rows
  size_t items = 0;           // list items of bundle sections
  size_t shortened = 0;       // prose fields cut short
  size_t findings_dropped = 0, bundles_dropped = 0;
  bool timeline_dropped = false;
  bool any() const {
    return evidence || info_short || findings_short || timeline || items || shortened || findings_dropped ||
           bundles_dropped || timeline_dropped;
  }
};

// A document being written, with the places it may be cut at when even the smallest limits do
// not fit: after a whole section, with what closes the open <details> there.
struct Doc {
  struct CutPoint {
    size_t offset;
    std::string closer;
    Cuts cuts;                           // what was left out before it
    size_t findings_done, bundles_done;  // findings and bundle sections complete before it
  };
  std::string text;
  std::vector<CutPoint> cut_points;
  void mark(std::string closer, const Cuts& cuts, size_t findings_done, size_t bundles_done) {
    cut_points.push_back({text.size(), std::move(closer), cuts, findings_done, bundles_done});
  }
};

// `text` cut to at most `max` bytes at a word boundary (never inside a UTF-8 sequence), with
// " ..." when cut; counted in `cuts.shortened`.
std::string shorten(const std::string& text, size_t max, Cuts& cuts);

// Said once where evidence paths are inside the inputs: how to see the lines around one.
inline constexpr std::string_view kShowHint =
    "Evidence paths are inside the input named above: `ascend-triage show INPUT/PATH:LINE` (a directory), "
    "`INPUT!PATH:LINE` (an archive) or `FILE:LINE` (a loose file) prints the lines around one.";

// "## Findings (N)", the findings above info, then those at info in a collapsed <details>.
void findings(Doc& doc, const Report& report, const EvidencePaths& paths, const Limits& limits, Cuts& cuts,
              size_t bundles_done, const std::string& knowledge_dir);

}  // namespace triage::md
