// system/cmdline: /proc/cmdline, one line of blank-separated parameters; double quotes
// group a value holding blanks (`param="a b"`) as the kernel reads them.
#include "parsers/collector/system_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {

void parse_kernel_cmdline(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  auto& facts = ctx.facts.system;
  bool done = false;
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty()) {
      ++ctx.stats.parsed;
      return;
    }
    if (done) {  // /proc/cmdline is one line
      ++ctx.stats.unrecognised;
      return;
    }
    done = true;
    facts.kernel_cmdline = std::string(t);
    std::string arg;
    bool quoted = false, in_arg = false;
    for (char c : t) {
      if (c == '"') {
        quoted = !quoted, in_arg = true;
      } else if ((c == ' ' || c == '\t') && !quoted) {
        if (in_arg) facts.kernel_cmdline_args.push_back(std::move(arg));
        arg.clear(), in_arg = false;
      } else {
        arg += c, in_arg = true;
      }
    }
    if (in_arg) facts.kernel_cmdline_args.push_back(std::move(arg));
    if (quoted) {
      note_malformed(ctx, line);  // an unclosed quote: kept, but said so
      return;
    }
    facts.evidence.push_back(evidence_at(ctx, line));
    ++ctx.stats.parsed;
  });
}

}  // namespace triage
