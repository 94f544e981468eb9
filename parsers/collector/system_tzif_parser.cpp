// system/localtime.tzif (a copy of /etc/localtime), or processes/<pid>/localtime.tzif (that
// process's /etc/localtime, through its root). Binary: a file that parses counts all its
// "lines" as parsed; one that does not counts them malformed, with the reason as sample.
#include "parsers/collector/process_parsers.h"
#include "parsers/collector/system_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {

void parse_localtime_tzif(ParseContext& ctx, ByteSource& src) {
  std::string bytes = read_small_entry(ctx, src, size_t{1} << 20);
  if (bytes.compare(0, 4, "TZif") != 0 && refuse_tool_error(ctx, bytes)) return;
  TzifZone z = parse_tzif(bytes);
  TzifFacts facts;
  facts.version = z.version;
  facts.footer = z.footer;
  facts.zone = z.zone;
  facts.note = z.zone ? z.note : z.error;
  facts.evidence = make_evidence(entry_name(ctx), 0, 0, z.footer.empty() ? "(TZif)" : z.footer);
  uint64_t lines = count_lines(bytes);
  if (z.zone) ctx.stats.parsed += lines;
  else add_malformed(ctx, lines, 1, 0, z.error);
  ctx.stats.variant = z.version ? "tzif-v" + std::to_string(z.version) : "";
  if (pid_from_entry_path(ctx.entry.path)) {
    process_of_entry(ctx)->localtime_tzif = std::move(facts);
  } else {
    ctx.facts.system.localtime_tzif = std::move(facts);
  }
}

}  // namespace triage
