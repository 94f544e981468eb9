#include "model/error_lines.h"

#include <fmt/format.h>

namespace triage {

void ErrorLine::add_repeats(const FoldedRepeats& r) {
  count += r.lines;
  if (r.lines && r.last.valid) last = error_time_text(r.last);
}

namespace {
std::string local_text(const CivilTime& c) {
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02} (local)", c.year, c.month, c.day, c.hour,
                     c.minute, c.second);
}
}  // namespace

std::string error_time_text(const LocalTime& t) {
  if (t.time.known()) return format_utc(t.time.utc_us);
  if (!t.valid) return {};
  return local_text(t.civil);
}

std::string error_time_text(const Timestamp& t) { return t.known() ? format_utc(t.utc_us) : std::string(); }

std::string error_time_text(const CivilTime& c) {
  if (!c.valid()) return {};
  return local_text(c);
}

}  // namespace triage
