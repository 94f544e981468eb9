// `ascend-triage timeline`: the timeline alone, as text. Times in UTC with the host's local
// time beside them (never the analyst's zone); boots interleaved; skews first, because they
// say how far apart two lanes' clocks were.
#include <fmt/format.h>

#include <string>

#include "reports/render.h"

namespace triage {

namespace {

std::string local_of(int64_t utc_us, const std::optional<int>& offset) {
  return offset ? "local " + format_with_offset(utc_us, *offset) : "local time unknown";
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
  return out;
}

void event_text(const TimelineEvent& e, std::ostream& out) {
  out << format_utc(e.first_utc_us) << "  " << local_of(e.first_utc_us, e.local_offset_seconds)
      << "  " << upper(to_string(e.severity)) << "  " << e.source << "  " << e.kind << '\n';
  out << "    " << e.message << '\n';
  std::string detail;
  if (e.count > 1)
    detail += fmt::format("x{}, last {} ({}); ", e.count, format_utc(e.last_utc_us),
                          local_of(e.last_utc_us, e.local_offset_seconds));
  if (!e.host.empty()) detail += "host " + e.host + " ";
  if (e.pid) detail += fmt::format("pid {} ", *e.pid);
  if (e.device) detail += fmt::format("device {} ", *e.device);
  if (e.stream) detail += fmt::format("stream {} ", *e.stream);
  if (!e.time_note.empty()) detail += "(" + e.time_note + ") ";
  if (!detail.empty()) out << "    " << detail << '\n';
  out << "    evidence " << e.evidence.entry;
  if (e.evidence.line) out << ':' << e.evidence.line;
  if (!e.finding_ids.empty()) {
    out << "; findings";
    for (const auto& id : e.finding_ids) out << ' ' << id;
  }
  out << '\n';
}

void boot_text(const BootMark& b, std::ostream& out) {
  out << format_utc(b.start_utc_us) << "  == " << (b.after_previous ? "REBOOT" : "BOOT")
      << (b.host.empty() ? "" : " of " + b.host) << ": boot " << b.boot_id << " (" << b.evidence.entry;
  if (b.evidence.line) out << ':' << b.evidence.line;
  out << ")\n";
}

}  // namespace

void render_timeline_text(const Report& report, const EvidenceSet&, const RenderOptions& opt,
                          std::ostream& out) {
  const Timeline& t = report.timeline;
  if (!opt.redaction_note.empty()) out << opt.redaction_note << "\n\n";
  out << fmt::format("Timeline: {} events, {} boots", t.events.size(), t.boots.size());
  if (t.filtered_out) out << fmt::format(", {} filtered out", t.filtered_out);
  if (t.undated) out << fmt::format(", {} without a usable time (not shown)", t.undated);
  out << "\nTimes are UTC; `local` is the host's own zone at that instant.\n";
  if (t.collection_utc_us) out << "Collected " << format_utc(*t.collection_utc_us) << '\n';
  if (!t.skews.empty()) {
    out << "\nClock skew (measured; nothing below is moved because of it):\n";
    for (const auto& s : t.skews) {
      out << fmt::format("  {}{} vs {}: {} reads {:+.1f} s against {} ({} pair{}; {})\n",
                         s.host.empty() ? "" : s.host + ": ", s.source_b, s.source_a, s.source_b,
                         s.b_minus_a_seconds, s.source_a, s.pairs, s.pairs == 1 ? "" : "s",
                         s.method);
    }
  }
  out << '\n';
  size_t b = 0;
  for (const auto& e : t.events) {
    while (b < t.boots.size() && t.boots[b].start_utc_us <= e.first_utc_us) boot_text(t.boots[b++], out);
    event_text(e, out);
  }
  while (b < t.boots.size()) boot_text(t.boots[b++], out);
  if (t.events.empty() && t.boots.empty()) out << "(no events)\n";
}

}  // namespace triage
