// kernel/boots.txt: `journalctl --list-boots --utc`. Two shapes exist:
//   ` -1 c69ba5291b6d440fa2ad985fff78b465 Tue 2026-09-01 00:12:08 UTC—Fri 2026-09-04 02:12:39 UTC`
// (systemd < 253) and, with a header line `IDX BOOT ID FIRST ENTRY LAST ENTRY`,
//   `-1 c69ba5291b6d440fa2ad985fff78b465 Tue 2026-09-01 00:12:08 UTC Fri 2026-09-04 02:12:39 UTC`.
// Times in another zone than UTC are kept without a time (the collector asks for --utc).
#include <optional>

#include "model/facts_events.h"
#include "parsers/kernel/boots_parser.h"
#include "parsers/kernel/kernel_line.h"
#include "parsers/common/text_file.h"

namespace triage {

namespace {

using sv = std::string_view;

bool is_hex(sv s) {
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
      return false;
  return true;
}

// The next "YYYY-MM-DD HH:MM:SS UTC" at or after `from`; advances `from` past it.
// nullopt when none; `zone_other` set when a time is found in another zone.
std::optional<int64_t> next_utc_time(sv text, size_t& from, bool& zone_other) {
  for (size_t i = from; i + 19 <= text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') continue;
    CivilTime c;
    if (parse_civil_prefix(text.substr(i, 19), c) != 19) continue;
    sv zone = text.substr(i + 19);
    while (!zone.empty() && zone.front() == ' ') zone.remove_prefix(1);
    from = i + 19;
    if (zone.substr(0, 3) == "UTC" || zone.substr(0, 3) == "GMT") return civil_to_epoch_us(c);
    zone_other = true;
    return std::nullopt;
  }
  from = text.size();
  return std::nullopt;
}

}  // namespace

void parse_boots_txt(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  for_each_line(text, [&](const TextLine& line) {
    sv t = trim(line.text);
    if (t.empty() || t.starts_with("IDX") || t.starts_with("-- No entries")) {
      ++ctx.stats.parsed;
      return;
    }
    size_t sp = t.find(' ');
    auto index = parse_int(t.substr(0, sp));
    sv rest = sp == sv::npos ? sv{} : trim(t.substr(sp));
    size_t sp2 = rest.find(' ');
    sv id = rest.substr(0, sp2);
    bool id_ok = (id.size() == 32 && is_hex(id)) || (id.size() == 36 && id[8] == '-');
    if (!index || !id_ok) {
      note_malformed(ctx, line);
      return;
    }
    BootRecord b;
    b.index = *index;
    b.boot_id = dashed_boot_id(id);  // id_ok above checked the hex digits
    size_t from = 0;
    bool zone_other = false;
    sv times = sp2 == sv::npos ? sv{} : rest.substr(sp2);
    b.first_utc_us = next_utc_time(times, from, zone_other);
    b.last_utc_us = next_utc_time(times, from, zone_other);
    b.evidence = evidence_at(ctx, line);
    if (!b.first_utc_us && !zone_other) {
      note_malformed(ctx, line);
      return;
    }
    ctx.facts.events.boots.push_back(std::move(b));
    if (zone_other) ++ctx.stats.unrecognised;
    else ++ctx.stats.parsed;
  });
  ctx.stats.variant = "list-boots";
}

}  // namespace triage
