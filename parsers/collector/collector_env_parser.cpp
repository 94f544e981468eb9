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
  uint64_t line = 1;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(sep, pos);
    if (end == std::string::npos) end = text.size();
    std::string_view r = std::string_view(text).substr(pos, end - pos);
    if (!nul && !r.empty() && r.back() == '\r') r.remove_suffix(1);
    size_t eq = r.find('=');
    if (r.empty()) {
      ++ctx.stats.unrecognised;
    } else if (eq == std::string_view::npos || eq == 0) {
      ctx.stats.note_malformed(entry_name(ctx), line, pos, r);
    } else {
      lf.collector_env.push_back(KeyValueLine{std::string(r.substr(0, eq)), std::string(r.substr(eq + 1)),
                                              make_evidence(entry_name(ctx), line, pos, r)});
      ++ctx.stats.parsed;
    }
    for (char c : r) line += c == '\n';
    if (!nul) ++line;
    pos = end + 1;
  }
  // NUL-separated records are counted, not lines: keep the invariant parsed + ... == lines.
  if (nul) ctx.stats.lines = ctx.stats.parsed + ctx.stats.unrecognised + ctx.stats.malformed;
}

}  // namespace triage
