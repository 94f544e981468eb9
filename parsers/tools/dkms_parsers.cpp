// modules/dkms-status.txt (`dkms status`, old "name, ver, kver, arch: state" and new
// "name/ver, kver, arch: state" formats) and modules/dkms-tree.txt (a listing of
// /var/lib/dkms/davinci_ascend, kept as lines for evidence).
#include "parsers/tools/module_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {

void parse_dkms_status(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  ctx.facts.modules.have_dkms_status = true;
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty()) {
      ++ctx.stats.parsed;
      return;
    }
    if (t.substr(0, 8) == "Warning:" || t.substr(0, 6) == "Error!") {
      ++ctx.stats.unrecognised;
      return;
    }
    size_t colon = t.rfind(": ");
    if (colon == std::string_view::npos && !t.empty() && t.back() == ':') colon = t.size() - 1;
    if (colon == std::string_view::npos) {
      note_malformed(ctx, line);
      return;
    }
    auto parts = split_list(t.substr(0, colon), ",");
    for (auto& p : parts) p = std::string(trim(p));
    if (parts.empty() || parts[0].empty()) {
      note_malformed(ctx, line);
      return;
    }
    DkmsStatusLine d;
    d.state = trim(t.substr(colon + 1));
    size_t i = 0;
    size_t slash = parts[0].find('/');
    if (slash != std::string::npos) {
      d.name = parts[0].substr(0, slash);
      d.version = parts[0].substr(slash + 1);
      i = 1;
    } else {
      d.old_format = true;
      d.name = parts[0];
      if (parts.size() < 2) {
        note_malformed(ctx, line);
        return;
      }
      d.version = parts[1];
      i = 2;
    }
    if (i < parts.size()) d.kver = parts[i];
    if (i + 1 < parts.size()) d.arch = parts[i + 1];
    d.evidence = evidence_at(ctx, line);
    ctx.facts.modules.dkms.push_back(std::move(d));
    ++ctx.stats.parsed;
  });
}

void parse_dkms_tree(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  for_each_line(text, [&](const TextLine& line) {
    ++ctx.stats.parsed;
    std::string_view t = trim(line.text);
    if (!t.empty() && ctx.facts.modules.dkms_tree_lines.size() < 1000)
      ctx.facts.modules.dkms_tree_lines.emplace_back(t);
  });
}

}  // namespace triage
