// mountinfo (processes/<pid>/mountinfo and the host's mounts/mountinfo.txt):
// "id parent major:minor root mount_point options [optional fields...] - fstype source super".
// Paths escape space, tab, newline and backslash as octal (\040 ...). Also processes/<pid>/cgroup
// ("hierarchy:controllers:path").
#include "parsers/collector/process_parsers.h"
#include "parsers/common/text_file.h"
#include "parsers/collector/version_parsers.h"

namespace triage {
namespace {

// Splits at blanks into at most `max` views; returns the count.
size_t split_blanks(std::string_view t, std::string_view* out, size_t max) {
  size_t n = 0, pos = 0;
  while (pos < t.size() && n < max) {
    while (pos < t.size() && (t[pos] == ' ' || t[pos] == '\t')) ++pos;
    if (pos >= t.size()) break;
    size_t end = pos;
    while (end < t.size() && t[end] != ' ' && t[end] != '\t') ++end;
    out[n++] = t.substr(pos, end - pos);
    pos = end;
  }
  return n;
}

void parse_mount_table(ParseContext& ctx, std::string_view text, MountTable& table) {
  table.present = true;
  for_each_line(text, [&](const TextLine& line) {
    if (trim(line.text).empty()) {
      ++ctx.stats.unrecognised;
      return;
    }
    std::string_view f[64];
    size_t n = split_blanks(line.text, f, 64);
    size_t dash = 0;
    for (size_t i = 6; i < n; ++i)
      if (f[i] == "-") {
        dash = i;
        break;
      }
    if (n < 9 || dash == 0 || dash + 2 >= n || !parse_int(f[0])) {
      note_malformed(ctx, line);
      return;
    }
    MountEntry m;
    m.root = decode_mount_escapes(f[3]);
    m.mount_point = decode_mount_escapes(f[4]);
    m.fstype = std::string(f[dash + 1]);
    m.source = decode_mount_escapes(f[dash + 2]);
    m.evidence = evidence_at(ctx, line);
    table.entries.push_back(std::move(m));
    ++ctx.stats.parsed;
  });
}

}  // namespace

std::string decode_mount_escapes(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  auto oct = [&](size_t k) { return s[k] >= '0' && s[k] <= '7'; };
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && oct(i + 1) && oct(i + 2) && oct(i + 3)) {
      out.push_back(static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 +
                                      (s[i + 3] - '0')));
      i += 3;
      continue;
    }
    out.push_back(s[i]);
  }
  return out;
}

void parse_proc_mountinfo(ParseContext& ctx, ByteSource& src) {
  std::string text;
  ProcessInfo* p = read_process_file(ctx, src, text);
  if (!p) return;
  parse_mount_table(ctx, text, ctx.facts.libraries.process(p->pid).mounts);
}

void parse_host_mountinfo(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  parse_mount_table(ctx, text, ctx.facts.libraries.host_mounts);
}

void parse_proc_cgroup(ParseContext& ctx, ByteSource& src) {
  std::string text;
  ProcessInfo* p = read_process_file(ctx, src, text);
  if (!p) return;
  ProcessLibraries& lib = ctx.facts.libraries.process(p->pid);
  lib.has_cgroup = true;
  for_each_line(text, [&](const TextLine& line) {
    if (trim(line.text).empty()) {
      ++ctx.stats.unrecognised;
      return;
    }
    size_t c1 = line.text.find(':');
    size_t c2 = c1 == std::string_view::npos ? c1 : line.text.find(':', c1 + 1);
    if (c2 == std::string_view::npos || !parse_int(line.text.substr(0, c1))) {
      note_malformed(ctx, line);
      return;
    }
    if (lib.cgroup_paths.empty()) lib.cgroup_evidence = evidence_at(ctx, line);
    lib.cgroup_paths.emplace_back(line.text.substr(c2 + 1));
    ++ctx.stats.parsed;
  });
}

}  // namespace triage
