#include "ingest/mixed_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>

#include "ingest/input_findings.h"
#include "ingest/registry.h"
#include "ingest/segment.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace {

// A paste is small; a file of several kinds larger than this is read up to here, the rest
// counted (as read_small_entry does).
constexpr size_t kMixedCap = size_t{16} << 20;

// One segment's bytes, with the line number and offset of its first line in the file.
class SegmentSource final : public ByteSource {
 public:
  SegmentSource(std::string_view bytes, uint64_t line, uint64_t offset)
      : bytes_(bytes), line_(line), offset_(offset) {}
  size_t read(char* buf, size_t n) override {
    size_t k = std::min(n, bytes_.size() - pos_);
    std::copy_n(bytes_.data() + pos_, k, buf);
    pos_ += k;
    return k;
  }
  uint64_t first_line_number() const override { return line_; }
  uint64_t first_offset() const override { return offset_; }

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
  uint64_t line_, offset_;
};

void parse_segment(ParseContext& ctx, std::string_view text, const SegmentSpan& span, TextSegment& seg) {
  uint64_t body_offset = span.first_offset;
  if (span.prompt) {
    size_t nl = text.find('\n', span.first_offset);
    body_offset = nl == std::string_view::npos ? span.end_offset : std::min<uint64_t>(nl + 1, span.end_offset);
    ++seg.parsed;  // the prompt line: recognised by its shape
    ++seg.lines_recognised;
  }
  std::string_view body = text.substr(body_offset, span.end_offset - body_offset);
  SegmentKind k = segment_kind(span, body);
  seg.kind = k.kind;
  seg.reason = std::move(k.reason);
  seg.command = std::string(span.command);
  uint64_t body_lines = count_lines(body);
  ParseFn parse = k.kind == SourceKind::mixed_text ? nullptr : parser_for(k.kind);
  if (!parse || body.empty()) {
    seg.unrecognised += body_lines;
    return;
  }
  ParseStats st;
  SegmentSource src(body, span.body_line(), body_offset);
  ParseContext sub{ctx.entry, ctx.facts, st, ctx.options, span.body_line() - 1, body_offset, span.command};
  try {
    parse(sub, src);
  } catch (const std::exception& ex) {
    ctx.facts.input_findings.push_back(parser_error_finding(
        ctx.entry.display, to_string(k.kind), fmt::format("lines {}-{}: {}", seg.first_line, seg.last_line, ex.what())));
  }
  seg.parsed += st.parsed;
  seg.malformed += st.malformed;
  // Shape counts: the reader's own when it keeps them, else the lines it parsed.
  bool counted = st.lines_recognised + st.lines_unrecognised > 0;
  seg.lines_recognised += std::min(body_lines, counted ? st.lines_recognised : st.parsed);
  // Lines the parser saw but did not judge, or never reached, are not recognised.
  uint64_t judged = st.parsed + st.unrecognised + st.malformed;
  seg.unrecognised += st.unrecognised + (body_lines > judged ? body_lines - judged : 0);
  for (auto& ev : st.samples_of_malformed)
    if (ctx.stats.samples_of_malformed.size() < ParseStats::kMaxMalformedSamples)
      ctx.stats.samples_of_malformed.push_back(std::move(ev));
}

}  // namespace

void parse_mixed_text(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src, kMixedCap);
  ctx.stats.variant = "mixed";
  for (const SegmentSpan& span : split_segments(text)) {
    TextSegment seg;
    seg.first_line = span.first_line;
    seg.last_line = span.last_line;
    parse_segment(ctx, text, span, seg);
    ctx.stats.parsed += seg.parsed;
    ctx.stats.unrecognised += seg.unrecognised;
    ctx.stats.malformed += seg.malformed;
    ctx.stats.lines_recognised += seg.lines_recognised;
    ctx.stats.lines_unrecognised += (seg.last_line - seg.first_line + 1) - seg.lines_recognised;
    ctx.stats.segments.push_back(std::move(seg));
  }
}

}  // namespace triage
