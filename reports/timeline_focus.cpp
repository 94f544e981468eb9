#include "reports/timeline_focus.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/strings.h"

namespace triage {
namespace {

constexpr int64_t kSecond = 1000000;
constexpr int64_t kGap = 20 * 60 * kSecond;  // a quiet gap this long ends a run
constexpr size_t kMarkers = 2;               // installs / boots named on each side

struct Run {
  int64_t lo = 0, hi = 0;
  size_t stalls = 0, errors = 0, warnings = 0;
  int64_t stall_us = 0;
  std::string stall_stream;
};

int64_t last_of(const TimelineEvent& e) { return std::max(e.first_utc_us, e.last_utc_us); }

bool counts(const TimelineEvent& e) {
  return e.kind != "install" && (is_stall_event(e) || e.severity >= Severity::warning);
}

// The run to show: the longest stall's; without a stall, the most errors, then warnings,
// then the latest.
bool better(const Run& a, const Run& b) {
  if (a.stall_us != b.stall_us) return a.stall_us > b.stall_us;
  if (a.errors != b.errors) return a.errors > b.errors;
  if (a.warnings != b.warnings) return a.warnings > b.warnings;
  return a.lo > b.lo;
}

}  // namespace

bool is_stall_event(const TimelineEvent& e) {
  // The run of reports (first to last), not a single line the stall finding also cites.
  return e.count > 1 && e.last_utc_us > e.first_utc_us &&
         std::find(e.finding_ids.begin(), e.finding_ids.end(), "stream-stall") != e.finding_ids.end();
}

std::optional<FocusWindow> focus_window(const Timeline& t) {
  std::vector<const TimelineEvent*> marks;
  for (const auto& e : t.events)
    if (counts(e)) marks.push_back(&e);
  if (marks.empty()) return std::nullopt;
  std::stable_sort(marks.begin(), marks.end(),
                   [](const TimelineEvent* a, const TimelineEvent* b) { return a->first_utc_us < b->first_utc_us; });
  std::vector<Run> runs;
  for (const TimelineEvent* e : marks) {
    if (runs.empty() || e->first_utc_us > runs.back().hi + kGap) runs.push_back(Run{e->first_utc_us, last_of(*e)});
    Run& r = runs.back();
    r.hi = std::max(r.hi, last_of(*e));
    if (is_stall_event(*e)) {
      ++r.stalls;
      if (last_of(*e) - e->first_utc_us > r.stall_us) {
        r.stall_us = last_of(*e) - e->first_utc_us;
        r.stall_stream = e->stream ? std::to_string(*e->stream) : std::string();
      }
    } else if (e->severity >= Severity::error) {
      ++r.errors;
    } else {
      ++r.warnings;
    }
  }
  const Run& best = *std::min_element(runs.begin(), runs.end(), better);

  int64_t all_lo = marks.front()->first_utc_us, all_hi = 0;
  for (const auto& e : t.events) {
    all_lo = std::min(all_lo, e.first_utc_us);
    all_hi = std::max(all_hi, last_of(e));
  }
  for (const auto& b : t.boots) all_lo = std::min(all_lo, b.start_utc_us), all_hi = std::max(all_hi, b.start_utc_us);
  int64_t pad = std::max<int64_t>((best.hi - best.lo) / 10, 60 * kSecond);
  FocusWindow w{best.lo - pad, best.hi + pad, {}, best.stalls, best.errors, best.warnings, {}, {}};
  // Nothing to zoom into when the run is most of the range.
  if ((w.hi - w.lo) * 3 > all_hi - all_lo) return std::nullopt;

  if (best.stalls)
    w.why = fmt::format("the stall{} and {} error(s), {} warning(s) around it",
                        best.stall_stream.empty() ? "" : " of stream " + best.stall_stream, best.errors, best.warnings);
  else
    w.why = fmt::format("the densest run of warnings and errors: {} error(s), {} warning(s)", best.errors, best.warnings);

  // Installs and boots outside the window, nearest first, become markers at its edges.
  std::vector<FocusMarker> before, after;
  auto place = [&](int64_t at, std::string label) {
    if (at < w.lo) before.push_back({at, std::move(label)});
    else if (at > w.hi) after.push_back({at, std::move(label)});
  };
  for (const auto& e : t.events)
    if (e.kind == "install") place(e.first_utc_us, "install: " + shorten_utf8(e.message, 48));
  for (const auto& b : t.boots) place(b.start_utc_us, b.after_previous ? "reboot" : "boot");
  std::stable_sort(before.begin(), before.end(), [](const auto& a, const auto& b) { return a.utc_us > b.utc_us; });
  std::stable_sort(after.begin(), after.end(), [](const auto& a, const auto& b) { return a.utc_us < b.utc_us; });
  if (before.size() > kMarkers) before.resize(kMarkers);
  if (after.size() > kMarkers) after.resize(kMarkers);
  w.before = std::move(before);
  w.after = std::move(after);
  return w;
}

}  // namespace triage
