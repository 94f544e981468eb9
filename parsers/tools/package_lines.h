#pragma once
// The loop shared by the readers of package listings (`pip list`, `pip freeze`): each trimmed
// line is read by the listing's own rule into one of four answers, and a row becomes a
// default-pip package of the listing's kind.
#include <string>
#include <string_view>

#include "model/package_rows.h"
#include "parsers/common/text_file.h"

namespace triage {

struct PackageLine {
  enum class Is { read, row, unrecognised, malformed };
  Is is = Is::read;  // read: a header, rule, comment or option, nothing to keep
  std::string_view name, version;

  static PackageLine row(std::string_view n, std::string_view v) { return {Is::row, n, v}; }
  static PackageLine unrecognised() { return {Is::unrecognised, {}, {}}; }
  static PackageLine malformed() { return {Is::malformed, {}, {}}; }
};

template <class ReadLine>  // PackageLine(std::string_view trimmed_line)
void read_package_lines(ParseContext& ctx, ByteSource& src, std::string_view kind, ReadLine read_line) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  for_each_line(text, [&](const TextLine& line) {
    PackageLine p = read_line(trim(line.text));
    switch (p.is) {
      case PackageLine::Is::row:
        add_default_pip(ctx.facts.libraries, p.name, p.version, kind, evidence_at(ctx, line));
        [[fallthrough]];
      case PackageLine::Is::read:
        ++ctx.stats.parsed;
        break;
      case PackageLine::Is::unrecognised:
        ++ctx.stats.unrecognised;
        break;
      case PackageLine::Is::malformed:
        ++ctx.stats.malformed;
        break;
    }
  });
  ctx.stats.lines_recognised = ctx.stats.parsed;
  ctx.stats.lines_unrecognised = ctx.stats.unrecognised + ctx.stats.malformed;
}

}  // namespace triage
