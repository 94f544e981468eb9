// Times of Python-side facts: kept as local wall-clock readings by the parser, converted here
// with the zone of the process that printed them (model/zones.h).
#include <algorithm>
#include <map>

#include "model/zones.h"
#include "parsers/job/python_parser.h"

namespace triage {
namespace {

void convert(const BundleFacts& facts, const AnalyzeOptions& options, std::optional<int64_t> pid,
             const CivilTime& local, Timestamp& time, std::string& zone_origin) {
  auto zone = zone_for_process(facts, pid, options);
  time = local_to_timestamp(local, zone, time.original);
  zone_origin = zone && time.known() ? zone->origin : std::string();
}

struct DatedLine {
  uint64_t line = 0;
  CivilTime local;
};

// c10 warnings print month and day but no year: take it from the nearest line of the same
// file that has a full date (ERR line, error-report header), else from the collection time.
std::optional<int> estimate_year(const std::vector<DatedLine>* dated, uint64_t line, int month,
                                 const BundleFacts& facts) {
  int ref_year = 0, ref_month = 0;
  if (dated && !dated->empty()) {
    auto it = std::lower_bound(dated->begin(), dated->end(), line,
                               [](const DatedLine& d, uint64_t l) { return d.line < l; });
    const DatedLine* best = nullptr;
    if (it != dated->end()) best = &*it;
    if (it != dated->begin() && (!best || line - std::prev(it)->line <= best->line - line))
      best = &*std::prev(it);
    ref_year = best->local.year;
    ref_month = best->local.month;
  } else if (facts.system.collected_at_us) {
    CivilTime c = civil_from_utc_us(*facts.system.collected_at_us);
    ref_year = c.year;
    ref_month = c.month;
  } else {
    return std::nullopt;
  }
  if (month - ref_month > 6) return ref_year - 1;  // December warning, January reference
  if (ref_month - month > 6) return ref_year + 1;
  return ref_year;
}

}  // namespace

void finalize_python_facts(BundleFacts& facts, const AnalyzeOptions& options) {
  PythonFacts& py = facts.python;
  std::map<std::string_view, std::vector<DatedLine>> dated;  // by entry, sorted by line
  for (ErrLine& e : py.err_lines) {
    convert(facts, options, e.pid, e.local, e.time, e.zone_origin);
    dated[py.streams[e.stream].entry].push_back({e.evidence.line, e.local});
  }
  for (ErrorReportBlock& b : py.error_reports) {
    if (!b.has_time) continue;
    convert(facts, options, b.pid, b.local, b.time, b.zone_origin);
    dated[py.streams[b.stream].entry].push_back({b.evidence_header.line, b.local});
  }
  for (PythonTraceback& t : py.tracebacks)
    if (t.anchor.kind != PyAnchorKind::none)
      convert(facts, options, t.anchor.pid, t.anchor.local, t.anchor.time, t.anchor.zone_origin);

  // Job lines' own or carried times (job_line_time.h) on their signature hits: a full date
  // converts like any local time (and dates the year-less ones of its entry); a year-less one
  // takes its year below or stays as written, never a guessed full date.
  for (SignatureHit& h : facts.logs.signature_hits) {
    if (h.source != "job" || !h.time.valid || h.time.civil.year == 0) continue;
    if (!h.time.time.known()) {
      std::string origin;
      convert(facts, options, h.pid, h.time.civil, h.time.time, origin);
    }
    // A year-less stamp the parser dated by an earlier full date of its entry: its year is
    // not in the text as written.
    if (h.time.time.known() && h.time.time.original.find(std::to_string(h.time.civil.year)) == std::string::npos) {
      h.time.time.basis = TimeBasis::year_estimated;
      continue;  // it dates no other line
    }
    dated[h.evidence.entry].push_back({h.evidence.line, h.time.civil});
  }
  for (auto& [entry, lines] : dated)
    std::sort(lines.begin(), lines.end(),
              [](const DatedLine& a, const DatedLine& b) { return a.line < b.line; });
  for (TorchWarning& w : py.warnings) {
    if (!w.has_time) continue;
    const PyStream& s = py.streams[w.stream];
    auto it = dated.find(s.entry);
    auto year = estimate_year(it == dated.end() ? nullptr : &it->second, w.evidence.line,
                              w.month, facts);
    CivilTime local{year.value_or(0), w.month, w.day, w.hour, w.minute, w.second, w.micros};
    std::string origin;
    convert(facts, options, s.pid, local, w.time, origin);
    if (w.time.known()) w.time.basis = TimeBasis::year_estimated;
  }
  for (SignatureHit& h : facts.logs.signature_hits) {
    if (h.source != "job" || !h.time.valid || h.time.civil.year != 0) continue;
    auto it = dated.find(h.evidence.entry);
    auto year = estimate_year(it == dated.end() ? nullptr : &it->second, h.evidence.line, h.time.civil.month, facts);
    if (!year) {
      h.time.time.basis = TimeBasis::unknown;  // as written: no year anywhere in the bundle
      continue;
    }
    CivilTime local = h.time.civil;
    local.year = *year;
    if (local.month == 2 && local.day == 29 && !is_leap_year(local.year)) continue;  // stays as written
    std::string origin;
    convert(facts, options, h.pid, local, h.time.time, origin);
    if (h.time.time.known()) h.time.time.basis = TimeBasis::year_estimated;
  }
}

}  // namespace triage
