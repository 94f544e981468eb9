#include "parsers/tools/pip_list_text_parser.h"

#include "model/pep440.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace {

using sv = std::string_view;

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

// "torch-npu          2.1.0.post8.dev20241009": a name, blanks, a version starting with a digit.
bool split_row(sv t, sv& name, sv& version) {
  size_t i = 0;
  while (i < t.size() && name_char(t[i])) ++i;
  if (i == 0 || i >= t.size() || (t[i] != ' ' && t[i] != '\t')) return false;
  name = t.substr(0, i);
  while (i < t.size() && (t[i] == ' ' || t[i] == '\t')) ++i;
  if (i >= t.size() || t[i] < '0' || t[i] > '9') return false;
  size_t v = i;
  while (i < t.size() && t[i] != ' ' && t[i] != '\t') ++i;
  version = t.substr(v, i - v);
  return true;
}

bool is_header_or_rule(sv t) {
  if (t.starts_with("Package ") && t.find("Version") != sv::npos) return true;
  return !t.empty() && t.find_first_not_of("- ") == sv::npos;
}

}  // namespace

void parse_pip_list_text(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  LibraryFacts& lf = ctx.facts.libraries;
  for_each_line(text, [&](const TextLine& line) {
    sv t = trim(line.text);
    sv name, version;
    if (t.empty() || is_header_or_rule(t)) {
      ++ctx.stats.parsed;
    } else if (split_row(t, name, version)) {
      PackageRow row;
      row.name = std::string(name);
      row.normalized = pep503_normalize(name);
      row.version = std::string(version);
      row.kind = "pip-list";
      row.evidence = evidence_at(ctx, line);
      lf.default_pip.push_back(std::move(row));
      lf.has_default_pip = true;
      ++ctx.stats.parsed;
    } else {
      ++ctx.stats.unrecognised;
    }
  });
  ctx.stats.lines_recognised = ctx.stats.parsed;
  ctx.stats.lines_unrecognised = ctx.stats.unrecognised + ctx.stats.malformed;
}

}  // namespace triage
