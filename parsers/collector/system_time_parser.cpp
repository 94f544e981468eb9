// system/time.txt: key=value lines written from one instant: epoch=, utc=, local=,
// utc_offset=, timezone=, tz_posix=, clk_tck=. Values that disagree with epoch= are noted.
#include <fmt/format.h>

#include "parsers/collector/system_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace {

constexpr int64_t kFirstEpoch = -62135596800;  // 0001-01-01T00:00:00Z
constexpr int64_t kLastEpoch = 253402300799;   // 9999-12-31T23:59:59Z

// utc= and local= must name the instant epoch= names; tz_posix= must give utc_offset=.
void cross_check(const TimeFile& f, std::vector<std::string>& notes) {
  if (!f.epoch) return;
  int64_t at = *f.epoch * 1000000;
  if (!f.utc.empty()) {
    auto u = parse_iso8601_utc_us(f.utc);
    if (u && *u != at)
      notes.push_back(fmt::format("system/time.txt: utc={} disagrees with epoch={} ({})", f.utc,
                                  *f.epoch, format_utc(at)));
  }
  if (!f.local.empty()) {
    auto l = parse_iso8601_utc_us(f.local);
    if (l && *l != at)
      notes.push_back(fmt::format("system/time.txt: local={} disagrees with epoch={}", f.local,
                                  *f.epoch));
  }
  if (f.tz_posix_zone && f.utc_offset_seconds &&
      f.tz_posix_zone->offset_at_utc(at) != *f.utc_offset_seconds)
    notes.push_back(fmt::format(
        "system/time.txt: tz_posix={} gives {} at the collection time, utc_offset={} says {}",
        f.tz_posix, format_offset(f.tz_posix_zone->offset_at_utc(at)), f.utc_offset,
        format_offset(*f.utc_offset_seconds)));
}

}  // namespace

void parse_time_txt(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  TimeFile f;
  f.evidence = make_evidence(entry_name(ctx), 0, 0, "");
  for_each_key_value(ctx, text, [&](std::string_view k, std::string_view v, const TextLine&) {
    if (k == "epoch") {
      if (v.empty()) return LineVerdict::parsed;
      f.epoch = parse_int(v);
      // Years 1 to 9999 only: the microseconds of anything further overflow (found by fuzzing).
      if (f.epoch && (*f.epoch < kFirstEpoch || *f.epoch > kLastEpoch)) f.epoch.reset();
      return f.epoch ? LineVerdict::parsed : LineVerdict::malformed;
    }
    if (k == "utc" || k == "local") {
      (k == "utc" ? f.utc : f.local) = std::string(v);
      return v.empty() || parse_iso8601_utc_us(v) ? LineVerdict::parsed : LineVerdict::malformed;
    }
    if (k == "utc_offset") {
      f.utc_offset = std::string(v);
      if (v.empty()) return LineVerdict::parsed;
      if (auto z = ZoneRule::from_offset_text(v)) f.utc_offset_seconds = z->std_offset();
      return f.utc_offset_seconds ? LineVerdict::parsed : LineVerdict::malformed;
    }
    if (k == "timezone") {
      f.timezone = std::string(v);
      return LineVerdict::parsed;
    }
    if (k == "tz_posix") {
      f.tz_posix = std::string(v);
      if (v.empty()) return LineVerdict::parsed;
      f.tz_posix_zone = ZoneRule::from_posix(v);
      return f.tz_posix_zone ? LineVerdict::parsed : LineVerdict::malformed;
    }
    if (k == "clk_tck") {
      auto n = parse_int(v);
      if (n && *n > 0 && *n <= 100000) f.clk_tck = static_cast<int>(*n);
      return v.empty() || f.clk_tck ? LineVerdict::parsed : LineVerdict::malformed;
    }
    return LineVerdict::unrecognised;
  });
  if (f.epoch) f.evidence = make_evidence(entry_name(ctx), 0, 0, fmt::format("epoch={}", *f.epoch));
  cross_check(f, ctx.facts.system.notes);
  if (!f.tz_posix.empty() && !f.tz_posix_zone)
    ctx.facts.system.notes.push_back(fmt::format(
        "system/time.txt: tz_posix={} is not a POSIX TZ rule this analyzer understands", f.tz_posix));
  ctx.facts.system.clk_tck = f.clk_tck;
  ctx.facts.system.evidence.push_back(f.evidence);
  ctx.facts.system.time_file = std::move(f);
}

}  // namespace triage
