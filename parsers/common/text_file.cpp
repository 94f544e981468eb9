#include "parsers/common/text_file.h"
#include "model/strings.h"

#include <algorithm>
#include <charconv>

#include "parsers/common/tool_error.h"

namespace triage {

uint64_t count_lines(std::string_view text) {
  uint64_t n = static_cast<uint64_t>(std::count(text.begin(), text.end(), '\n'));
  return n + (!text.empty() && text.back() != '\n' ? 1 : 0);
}

std::string read_small_entry(ParseContext& ctx, ByteSource& src, size_t cap) {
  std::string text;
  text.reserve(static_cast<size_t>(std::min<uint64_t>(ctx.entry.size, cap)));  // one allocation when the size is known
  char buf[65536];
  uint64_t extra_newlines = 0, extra_bytes = 0;
  char last = '\n';
  while (true) {
    size_t k = src.read(buf, sizeof buf);
    if (k == 0) break;
    size_t take = std::min(k, cap - std::min(cap, text.size()));
    text.append(buf, take);
    if (take < k) {
      extra_bytes += k - take;
      extra_newlines += static_cast<uint64_t>(std::count(buf + take, buf + k, '\n'));
      last = buf[k - 1];
    }
  }
  ctx.stats.bytes = text.size() + extra_bytes;
  if (extra_bytes > 0) {
    // Keep whole lines only; the line cut by the cap joins the part counted, not read.
    size_t keep = text.rfind('\n');
    keep = keep == std::string::npos ? 0 : keep + 1;
    uint64_t beyond = extra_newlines + (last != '\n' ? 1 : 0);
    text.resize(keep);
    TextLine at{{}, count_lines(text) + 1, keep, false};
    ctx.stats.lines = count_lines(text) + beyond;
    add_malformed(ctx, beyond, at.number, at.offset,
                  "(entry larger than " + std::to_string(cap) + " bytes: the rest was counted, not read)");
    return text;
  }
  ctx.stats.lines = count_lines(text);
  return text;
}

bool refuse_tool_error(ParseContext& ctx, std::string_view text) {
  if (!note_tool_error(text, ctx.stats)) return false;
  ctx.stats.unrecognised += count_lines(text);
  return true;
}

std::string_view entry_name(const ParseContext& ctx) {
  return ctx.entry.display.empty() ? std::string_view(ctx.entry.path)
                                   : std::string_view(ctx.entry.display);
}

EvidenceRef evidence_at(const ParseContext& ctx, const TextLine& line) {
  return make_evidence(entry_name(ctx), ctx.line_base + line.number, ctx.offset_base + line.offset, line.text);
}

void note_malformed(ParseContext& ctx, const TextLine& line) {
  ctx.stats.note_malformed(entry_name(ctx), ctx.line_base + line.number, ctx.offset_base + line.offset, line.text);
}

void add_malformed(ParseContext& ctx, uint64_t count, uint64_t line, uint64_t offset,
                   std::string_view text) {
  ctx.stats.malformed += count;
  if (count > 0 && ctx.stats.samples_of_malformed.size() < ParseStats::kMaxMalformedSamples)
    ctx.stats.samples_of_malformed.push_back(make_evidence(entry_name(ctx), line, offset, text));
}


std::optional<int64_t> parse_int(std::string_view s) {
  if (s.empty()) return std::nullopt;
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<std::pair<std::string_view, std::string_view>> split_key_value(std::string_view line) {
  size_t eq = line.find('=');
  if (eq == std::string_view::npos || eq == 0) return std::nullopt;
  return std::make_pair(line.substr(0, eq), line.substr(eq + 1));
}

}  // namespace triage
