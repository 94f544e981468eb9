// system/devices.txt (`ls -l` of the Ascend device nodes), kernel/tainted
// (/proc/sys/kernel/tainted), kernel/secure-boot.txt (`mokutil --sb-state`).
#include "parsers/kernel/kernel_state_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {

void parse_devices_txt(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  auto& nodes = ctx.facts.modules.device_nodes.emplace();
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty() || t.substr(0, 6) == "total ") {
      ++ctx.stats.parsed;
      return;
    }
    if (t.substr(0, 3) == "ls:") {  // one pattern matched nothing, others did
      ++ctx.stats.unrecognised;
      return;
    }
    size_t arrow = t.find(" -> ");
    std::string_view head = arrow == std::string_view::npos ? t : t.substr(0, arrow);
    size_t sp = head.rfind(' ');
    if (sp == std::string_view::npos || head.substr(sp + 1).substr(0, 5) != "/dev/" ||
        std::string_view("-bcdlps").find(t.front()) == std::string_view::npos) {
      note_malformed(ctx, line);
      return;
    }
    DeviceNode n;
    n.path = head.substr(sp + 1);
    n.type = t.front();
    n.evidence = evidence_at(ctx, line);
    nodes.push_back(std::move(n));
    ++ctx.stats.parsed;
  });
}

void parse_tainted(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  bool seen = false;
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty()) {
      ++ctx.stats.parsed;
      return;
    }
    auto v = parse_int(t);
    if (seen || !v || *v < 0) {
      note_malformed(ctx, line);
      return;
    }
    seen = true;
    ctx.facts.modules.tainted = v;
    ctx.facts.modules.tainted_evidence = evidence_at(ctx, line);
    ++ctx.stats.parsed;
  });
}

void parse_secure_boot(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t == "SecureBoot enabled" || t == "SecureBoot disabled") {
      ctx.facts.modules.secure_boot = t == "SecureBoot enabled";
      ctx.facts.modules.secure_boot_evidence = evidence_at(ctx, line);
      ++ctx.stats.parsed;
    } else if (t.empty() || t.find("EFI variables are not supported") != std::string_view::npos ||
               t.find("validation") != std::string_view::npos) {
      ++ctx.stats.parsed;  // legacy boot, or "SecureBoot validation is disabled in shim"
    } else {
      ++ctx.stats.unrecognised;
    }
  });
}

}  // namespace triage
