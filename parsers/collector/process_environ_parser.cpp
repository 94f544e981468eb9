// processes/<pid>/environ and processes/<pid>/cmdline. As copied from /proc the records are
// NUL-separated; a customer who pasted them (`tr '\0' '\n'`) gives one record per line; a
// cmdline pasted from `ps` is one line of blank-separated words.
#include <algorithm>

#include "parsers/collector/process_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace {

constexpr size_t kMaxRecordsFile = size_t{16} << 20;

struct Record {
  std::string_view text;
  uint64_t line = 1;    // physical line where the record starts
  uint64_t offset = 0;
};

// Calls f(Record) for each record separated by `sep`; a final separator ends the last record
// (no empty record after it).
template <class F>
void for_each_record(std::string_view text, char sep, F&& f) {
  uint64_t line = 1;
  size_t pos = 0, counted_to = 0;
  while (pos < text.size()) {
    size_t end = text.find(sep, pos);
    if (end == std::string_view::npos) end = text.size();
    line += static_cast<uint64_t>(std::count(text.begin() + counted_to, text.begin() + pos, '\n'));
    counted_to = pos;
    std::string_view r = text.substr(pos, end - pos);
    if (sep == '\n' && !r.empty() && r.back() == '\r') r.remove_suffix(1);
    f(Record{r, line, pos});
    pos = end + 1;
  }
}

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
    size_t eq = r.text.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      ctx.stats.note_malformed(entry_name(ctx), r.line, r.offset, r.text);
      return;
    }
    p->environ.emplace_back(std::string(r.text.substr(0, eq)), std::string(r.text.substr(eq + 1)));
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
