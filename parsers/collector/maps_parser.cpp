// processes/<pid>/maps: "address perms offset dev inode   path". The path is everything after
// the inode and its padding (it may hold spaces); " (deleted)" ends the path of a file that was
// replaced or removed after it was mapped. Regions without a path are anonymous; "[heap]",
// "[stack]", "[vdso]" ... are special. One MappedFile per path (the first region as evidence).
#include <map>

#include "parsers/collector/process_parsers.h"
#include "parsers/common/text_file.h"
#include "parsers/collector/version_parsers.h"

namespace triage {
namespace {

// Skips `n` blank-separated fields; returns the position after them, npos if fewer.
size_t skip_fields(std::string_view t, int n) {
  size_t pos = 0;
  for (int i = 0; i < n; ++i) {
    while (pos < t.size() && t[pos] == ' ') ++pos;
    if (pos >= t.size()) return std::string_view::npos;
    while (pos < t.size() && t[pos] != ' ') ++pos;
  }
  return pos;
}

bool looks_like_address(std::string_view t) {
  size_t dash = t.find('-');
  if (dash == 0 || dash == std::string_view::npos || dash > 16) return false;
  for (size_t i = 0; i < dash; ++i)
    if (!std::isxdigit(static_cast<unsigned char>(t[i]))) return false;
  return true;
}

}  // namespace

void parse_proc_maps(ParseContext& ctx, ByteSource& src) {
  std::string text;
  ProcessInfo* p = read_process_file(ctx, src, text, size_t{64} << 20);
  if (!p) return;
  ProcessLibraries& lib = ctx.facts.libraries.process(p->pid);
  lib.has_maps = true;
  std::map<std::string, size_t, std::less<>> index;
  for (auto& f : lib.files) index.emplace(f.path, &f - lib.files.data());
  static constexpr std::string_view kDeleted = " (deleted)";
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = line.text;
    if (trim(t).empty()) {
      ++ctx.stats.unrecognised;
      return;
    }
    size_t after = skip_fields(t, 5);
    if (!looks_like_address(t) || after == std::string_view::npos) {
      note_malformed(ctx, line);
      return;
    }
    std::string_view path = t.substr(after);
    while (!path.empty() && path.front() == ' ') path.remove_prefix(1);
    ++ctx.stats.parsed;
    if (path.empty()) {
      ++lib.anonymous_regions;
      return;
    }
    if (path.front() == '[') {
      ++lib.special_regions;
      return;
    }
    bool deleted = path.ends_with(kDeleted);
    if (deleted) path.remove_suffix(kDeleted.size());
    auto it = index.find(path);
    if (it != index.end()) {
      lib.files[it->second].deleted |= deleted;
      return;
    }
    index.emplace(std::string(path), lib.files.size());
    lib.files.push_back(MappedFile{std::string(path), deleted, evidence_at(ctx, line)});
  });
}

}  // namespace triage
