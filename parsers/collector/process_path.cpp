#include "parsers/collector/process_parsers.h"

#include "parsers/common/text_file.h"

namespace triage {

std::optional<int64_t> pid_from_entry_path(std::string_view path) {
  static constexpr std::string_view kDir = "processes/";
  size_t at = 0;
  while (true) {
    at = path.find(kDir, at);
    if (at == std::string_view::npos) return std::nullopt;
    if (at == 0 || path[at - 1] == '/') break;
    at += kDir.size();
  }
  size_t i = at + kDir.size();
  int64_t pid = 0;
  size_t digits = 0;
  for (; i < path.size() && path[i] >= '0' && path[i] <= '9' && digits < 10; ++i, ++digits)
    pid = pid * 10 + (path[i] - '0');
  if (digits == 0 || i >= path.size() || path[i] != '/' || pid == 0) return std::nullopt;
  return pid;
}

ProcessInfo* process_of_entry(ParseContext& ctx) {
  auto pid = pid_from_entry_path(ctx.entry.path);
  if (!pid) return nullptr;
  ProcessInfo& p = ctx.facts.processes.by_pid[*pid];
  p.pid = *pid;
  return &p;
}

ProcessInfo* read_process_file(ParseContext& ctx, ByteSource& src, std::string& text, size_t cap) {
  text = read_small_entry(ctx, src, cap);
  ProcessInfo* p = process_of_entry(ctx);
  if (!p) {
    ctx.stats.unrecognised += count_lines(text);
    return nullptr;
  }
  // NUL-separated records never read as error text (detect_tool_error refuses NUL bytes).
  return refuse_tool_error(ctx, text) ? nullptr : p;
}

}  // namespace triage
