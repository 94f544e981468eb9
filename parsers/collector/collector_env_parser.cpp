// env/collector-env: the collector's own environment (the user's sudo shell), NUL-separated
// as /proc writes it (or one variable per line when pasted), already filtered to Ascend / HCCL /
// PATH / PYTHONPATH / LD_LIBRARY_PATH / task-queue variables. Kept as key=value lines with
// their evidence (LibraryFacts::collector_env); only ever compared for information.
#include "parsers/common/text_file.h"
#include "parsers/collector/version_parsers.h"

namespace triage {

void parse_collector_env(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src, size_t{1} << 20);
  if (refuse_tool_error(ctx, text)) return;
  LibraryFacts& lf = ctx.facts.libraries;
  lf.has_collector_env = true;
  const bool nul = text.find('\0') != std::string::npos;
  const char sep = nul ? '\0' : '\n';
  ctx.stats.variant = nul ? "nul-separated" : "newline-separated";
  for_each_record(text, sep, [&](const Record& r) {
    if (r.text.empty()) {
      ++ctx.stats.unrecognised;
      return;
    }
    auto kv = split_key_value(r.text);
    if (!kv) {
      ctx.stats.note_malformed(entry_name(ctx), r.line, r.offset, r.text);
      return;
    }
    lf.collector_env.push_back(KeyValueLine{std::string(kv->first), std::string(kv->second),
                                            make_evidence(entry_name(ctx), r.line, r.offset, r.text)});
    ++ctx.stats.parsed;
  });
  // NUL-separated records are counted, not lines: keep the invariant parsed + ... == lines.
  if (nul) ctx.stats.lines = ctx.stats.parsed + ctx.stats.unrecognised + ctx.stats.malformed;
}

}  // namespace triage
