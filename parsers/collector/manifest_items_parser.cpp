// manifest.items.jsonl: one item per line, appended by the collector as each step ends.
// A run that was killed may leave a last line without a newline: the contract says readers
// drop it; it is counted (malformed, and in jsonl_partial_lines_dropped).
#include <fmt/format.h>

#include "bundle/line_reader.h"
#include "parsers/collector/manifest_common.h"
#include "parsers/collector/manifest_parsers.h"
#include "parsers/common/text_file.h"
#include "parsers/common/tool_error.h"

namespace triage {
namespace od = simdjson::ondemand;

void parse_manifest_items_jsonl(ParseContext& ctx, ByteSource& src) {
  ManifestFacts& m = ctx.facts.manifest;
  m.has_items_jsonl = true;
  LineReader reader(src, ctx.options.limits.max_line_bytes);
  od::parser parser;
  std::string buf;  // the line with simdjson's padding, reused
  Line line;
  bool seen_data = false;
  size_t count = 0;  // items kept
  uint64_t first_offset = 0;
  auto malformed = [&](std::string_view why) {
    add_malformed(ctx, 1, line.number, line.offset,
                  fmt::format("{}: {}", why, make_excerpt(line.text, 160)));
  };
  while (reader.next(line)) {
    ++ctx.stats.lines;
    if (trim(line.text).empty()) {
      ++ctx.stats.unrecognised;
      continue;
    }
    if (!seen_data && line.text.front() != '{' && note_tool_error(line.text, ctx.stats)) {
      ++ctx.stats.unrecognised;
      while (reader.next(line)) ++ctx.stats.lines, ++ctx.stats.unrecognised;
      break;
    }
    seen_data = true;
    if (line.unterminated) {
      ++m.jsonl_partial_lines_dropped;
      malformed("partial last line dropped");
      continue;
    }
    if (line.overlong) {
      malformed("overlong line");
      continue;
    }
    buf.assign(line.text);
    buf.resize(line.text.size() + simdjson::SIMDJSON_PADDING);
    od::document doc;
    od::object obj;
    if (parser.iterate(buf.data(), line.text.size(), buf.size()).get(doc) ||
        doc.get_object().get(obj)) {
      malformed("not a JSON object");
      continue;
    }
    ManifestItem item;
    std::string error;
    if (!read_manifest_item(obj, item, error)) {
      malformed(error);
      continue;
    }
    item.evidence = make_evidence(entry_name(ctx), line.number, line.offset, line.text);
    if (++count == 1) first_offset = line.offset;
    if (count == kReserveAfterItems) reserve_items(m.jsonl_items, ctx.entry.size, first_offset, line.offset, count);
    m.jsonl_items.push_back(std::move(item));
    ++ctx.stats.parsed;
  }
  ctx.stats.bytes = reader.bytes_read();
  if (m.jsonl_partial_lines_dropped)
    m.notes.push_back(fmt::format("manifest.items.jsonl ends in a partial line (dropped): the "
                                  "collector was stopped while writing"));
}

}  // namespace triage
