// system/boot.txt: boot_id= (with dashes), btime= (epoch seconds), uptime_s= (seconds,
// fractional as in /proc/uptime).
#include <charconv>

#include "parsers/collector/system_parsers.h"
#include "model/strings.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace {


// 8-4-4-4-12 hex digits; 32 hex digits without dashes (journal style) get the dashes.
std::optional<std::string> normalise_boot_id(std::string_view v) {
  std::string hex;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '-') {
      if (i != 8 && i != 13 && i != 18 && i != 23) return std::nullopt;
      continue;
    }
    if (!is_hex(v[i])) return std::nullopt;
    hex += static_cast<char>(v[i] >= 'A' && v[i] <= 'F' ? v[i] + 32 : v[i]);
  }
  if (hex.size() != 32 || (v.size() != 32 && v.size() != 36)) return std::nullopt;
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

std::optional<int64_t> parse_seconds_us(std::string_view v) {
  double d = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
  if (ec != std::errc() || p != v.data() + v.size() || d < 0 || d > 1e10) return std::nullopt;
  return static_cast<int64_t>(d * 1e6 + 0.5);
}

}  // namespace

void parse_boot_txt(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  auto& sys = ctx.facts.system;
  for_each_key_value(ctx, text, [&](std::string_view k, std::string_view v, const TextLine& line) {
    if (v.empty() && (k == "boot_id" || k == "btime" || k == "uptime_s")) return LineVerdict::parsed;
    if (k == "boot_id") {
      auto id = normalise_boot_id(v);
      if (!id) return LineVerdict::malformed;
      sys.boot_id = *id;
    } else if (k == "btime") {
      auto b = parse_int(v);
      if (!b || *b <= 0) return LineVerdict::malformed;
      sys.btime = *b;
    } else if (k == "uptime_s") {
      auto u = parse_seconds_us(v);
      if (!u) return LineVerdict::malformed;
      sys.uptime_us = *u;
    } else {
      return LineVerdict::unrecognised;
    }
    sys.evidence.push_back(evidence_at(ctx, line));
    return LineVerdict::parsed;
  });
}

}  // namespace triage
