// python/pip-show.txt (`pip show <pkgs>`): "Name: x", "Version: y", "Location: z", other
// "Key: value" lines, blocks separated by "---". Each block with a name and a version adds a
// package row (kind "pip-show") to the collector's python3 pip rows, or to the process's for
// processes/<pid>/ (LibraryFacts::default_pip, ProcessLibraries::pip).
#include "model/pep440.h"
#include "parsers/collector/process_parsers.h"
#include "parsers/common/text_file.h"
#include "parsers/collector/version_parsers.h"

namespace triage {

void parse_pip_show(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  auto pid = pid_from_entry_path(ctx.entry.path);
  std::vector<PackageRow>& out =
      pid ? ctx.facts.libraries.process(*pid).pip : ctx.facts.libraries.default_pip;
  PackageRow row;
  auto flush = [&] {
    if (!row.name.empty() && !row.version.empty()) {
      row.normalized = pep503_normalize(row.name);
      row.kind = "pip-show";
      out.push_back(row);
    }
    row = PackageRow{};
  };
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty() || t == "---") {
      if (t == "---") flush();
      ++ctx.stats.parsed;
      return;
    }
    size_t colon = t.find(": ");
    if (colon == std::string_view::npos && t.back() == ':') colon = t.size() - 1;
    if (colon == std::string_view::npos || colon == 0) {
      note_malformed(ctx, line);
      return;
    }
    std::string_view key = t.substr(0, colon), value = trim(t.substr(colon + 1));
    if (key == "Name") {
      row.name = std::string(value);
      row.evidence = evidence_at(ctx, line);
    } else if (key == "Version") {
      row.version = std::string(value);
    } else if (key == "Location") {
      row.location = std::string(value);
    }
    ++ctx.stats.parsed;
  });
  flush();
  if (pid) ctx.facts.libraries.process(*pid).has_pip = true;
  else ctx.facts.libraries.has_default_pip = true;
}

}  // namespace triage
