// processes/<pid>/tz.txt: TZ= (from the process's environ; empty = unset), timezone=,
// tz_posix= and utc_offset= of the process's /etc/localtime (through its root).
// The zone is chosen in finalize_processes, once the process's localtime.tzif is read too.
#include "parsers/collector/process_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {

void parse_proc_tz_txt(ParseContext& ctx, ByteSource& src) {
  std::string text;
  ProcessInfo* p = read_process_file(ctx, src, text);
  if (!p) return;
  ProcessTzFile f;
  f.evidence = make_evidence(entry_name(ctx), 0, 0, "");
  for_each_key_value(ctx, text, [&](std::string_view k, std::string_view v, const TextLine&) {
    if (k == "TZ") {
      f.tz_env = std::string(v);
    } else if (k == "timezone") {
      f.timezone = std::string(v);
    } else if (k == "tz_posix") {
      f.tz_posix = std::string(v);
      if (!v.empty() && !ZoneRule::from_posix(v)) return LineVerdict::malformed;
    } else if (k == "utc_offset") {
      f.utc_offset = std::string(v);
      if (!v.empty() && !ZoneRule::from_offset_text(v)) return LineVerdict::malformed;
    } else {
      return LineVerdict::unrecognised;
    }
    return LineVerdict::parsed;
  });
  p->tz_file = std::move(f);
}

}  // namespace triage
