// processes/<pid>/stat: "pid (comm) state ppid ... starttime ...". comm may hold blanks and
// parentheses, so the fields are read after the LAST ')'. starttime (field 22) is in clock
// ticks after boot; finalize_processes turns it into a time with clk_tck and btime.
#include <fmt/format.h>

#include "parsers/collector/process_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {

void parse_proc_stat(ParseContext& ctx, ByteSource& src) {
  std::string text;
  ProcessInfo* p = read_process_file(ctx, src, text);
  if (!p) return;
  bool done = false;
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty()) {
      ++ctx.stats.parsed;
      return;
    }
    if (done) {
      ++ctx.stats.unrecognised;
      return;
    }
    size_t open = t.find('('), close = t.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
      note_malformed(ctx, line);
      return;
    }
    // Fields after the comm: [0] = state (field 3) ... [19] = starttime (field 22).
    std::string_view rest = t.substr(close + 1);
    std::string_view fields[20];
    size_t n = 0, pos = 0;
    while (pos < rest.size() && n < 20) {
      while (pos < rest.size() && rest[pos] == ' ') ++pos;
      size_t end = rest.find(' ', pos);
      if (end == std::string_view::npos) end = rest.size();
      if (end > pos) fields[n++] = rest.substr(pos, end - pos);
      pos = end;
    }
    auto pid = parse_int(trim(t.substr(0, open)));
    auto ppid = n > 1 ? parse_int(fields[1]) : std::nullopt;
    auto threads = n > 17 ? parse_int(fields[17]) : std::nullopt;
    auto start = n > 19 ? parse_int(fields[19]) : std::nullopt;
    if (!pid || n < 20 || fields[0].size() != 1 || !ppid || !threads || !start || *start < 0) {
      note_malformed(ctx, line);
      return;
    }
    done = true;
    ProcessStat s;
    s.comm = std::string(t.substr(open + 1, close - open - 1));
    s.state = fields[0][0];
    s.ppid = *ppid;
    s.num_threads = *threads;
    s.start_ticks = static_cast<uint64_t>(*start);
    s.evidence = evidence_at(ctx, line);
    if (*pid != p->pid)
      p->notes.push_back(fmt::format("stat names pid {}, its path pid {}", *pid, p->pid));
    p->stat = std::move(s);
    ++ctx.stats.parsed;
  });
}

}  // namespace triage
