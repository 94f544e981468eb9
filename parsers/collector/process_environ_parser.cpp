// processes/<pid>/environ and processes/<pid>/cmdline. As copied from /proc the records are
// NUL-separated; a customer who pasted them (`tr '\0' '\n'`) gives one record per line; a
// cmdline pasted from `ps` is one line of blank-separated words.
#include <algorithm>

#include "parsers/collector/process_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace {

constexpr size_t kMaxRecordsFile = size_t{16} << 20;

bool has_nul(std::string_view text) { return text.find('\0') != std::string_view::npos; }

}  // namespace

void parse_proc_environ(ParseContext& ctx, ByteSource& src) {
  std::string text;
  ProcessInfo* p = read_process_file(ctx, src, text, kMaxRecordsFile);
  if (!p) return;
  p->has_environ = true;
  char sep = has_nul(text) ? '\0' : '\n';
  ctx.stats.variant = sep == '\0' ? "nul-separated" : "newline-separated";
  bool first = true;
  for_each_record(text, sep, [&](const Record& r) {
    if (r.text.empty()) {  // /proc never writes empty entries; a blank pasted line
      ++ctx.stats.unrecognised;
      return;
    }
    auto kv = split_key_value(r.text);
    if (!kv) {
      ctx.stats.note_malformed(entry_name(ctx), r.line, r.offset, r.text);
      return;
    }
    p->environ.emplace_back(std::string(kv->first), std::string(kv->second));
    if (first) p->evidence.push_back(make_evidence(entry_name(ctx), r.line, r.offset, r.text));
    first = false;
    ++ctx.stats.parsed;
  });
}

void parse_proc_cmdline(ParseContext& ctx, ByteSource& src) {
  std::string text;
  ProcessInfo* p = read_process_file(ctx, src, text, kMaxRecordsFile);
  if (!p) return;
  p->has_cmdline = true;
  p->argv.clear();
  if (text.empty()) {
    p->notes.push_back("empty cmdline: a kernel thread or a zombie");
    return;
  }
  if (has_nul(text)) {
    ctx.stats.variant = "nul-separated";
    for_each_record(text, '\0', [&](const Record& r) {
      p->argv.emplace_back(r.text);  // empty arguments are real ("")
      ++ctx.stats.parsed;
    });
  } else {
    // Pasted: one argument per line, or a single line of blank-separated words.
    size_t lines = 0;
    for_each_line(text, [&](const TextLine& l) { lines += !trim(l.text).empty(); });
    ctx.stats.variant = lines > 1 ? "newline-separated" : "blank-separated";
    for_each_line(text, [&](const TextLine& l) {
      std::string_view t = l.text;
      if (lines > 1) {
        if (trim(t).empty()) ++ctx.stats.unrecognised;
        else p->argv.emplace_back(t), ++ctx.stats.parsed;
        return;
      }
      if (trim(t).empty()) {
        ++ctx.stats.parsed;
        return;
      }
      size_t pos = 0;
      while (pos < t.size()) {
        while (pos < t.size() && (t[pos] == ' ' || t[pos] == '\t')) ++pos;
        size_t end = pos;
        while (end < t.size() && t[end] != ' ' && t[end] != '\t') ++end;
        if (end > pos) p->argv.emplace_back(t.substr(pos, end - pos));
        pos = end;
      }
      ++ctx.stats.parsed;
    });
    p->notes.push_back(lines > 1 ? "cmdline was newline-separated (pasted by hand?)"
                                 : "cmdline was one line of words (pasted from ps?): quoting "
                                   "of the original arguments is lost");
  }
  std::string shown;
  for (const auto& a : p->argv) shown += (shown.empty() ? "" : " ") + a;
  p->evidence.push_back(make_evidence(entry_name(ctx), 1, 0, shown));
}

}  // namespace triage
