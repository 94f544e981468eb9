#pragma once
// Helpers for the small text files of a bundle (key=value files, uname, environ, ...):
// such a file is read whole up to a cap; what lies beyond the cap is still counted.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "parsers/common/parser.h"
#include "model/strings.h"

namespace triage {

struct TextLine {
  std::string_view text;  // without the newline and one trailing '\r'
  uint64_t number = 0;    // 1-based
  uint64_t offset = 0;    // of the line's first byte
  bool unterminated = false;
};

// Calls f(const TextLine&) for each line, numbered as LineReader numbers them.
template <class F>
void for_each_line(std::string_view text, F&& f) {
  uint64_t number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    TextLine line;
    line.number = ++number;
    line.offset = pos;
    line.unterminated = nl == std::string_view::npos;
    size_t end = line.unterminated ? text.size() : nl;
    line.text = text.substr(pos, end - pos);
    if (!line.text.empty() && line.text.back() == '\r') line.text.remove_suffix(1);
    pos = end + 1;
    f(static_cast<const TextLine&>(line));
  }
}

// A NUL- or newline-separated record (/proc/<pid>/environ, cmdline, env files).
struct Record {
  std::string_view text;  // without the separator ('\r' dropped when it is '\n')
  uint64_t line = 1;      // physical line where the record starts
  uint64_t offset = 0;
};

// Calls f(const Record&) for each record separated by `sep`; a final separator ends the
// last record (no empty record after it).
template <class F>
void for_each_record(std::string_view text, char sep, F&& f) {
  uint64_t line = 1;
  size_t pos = 0, counted_to = 0;
  while (pos < text.size()) {
    size_t end = text.find(sep, pos);
    if (end == std::string_view::npos) end = text.size();
    for (size_t i = counted_to; i < pos; ++i) line += text[i] == '\n';
    counted_to = pos;
    std::string_view r = text.substr(pos, end - pos);
    if (sep == '\n' && !r.empty() && r.back() == '\r') r.remove_suffix(1);
    f(static_cast<const Record&>(Record{r, line, pos}));
    pos = end + 1;
  }
}

// Newline count, plus one for a final line without a newline.
uint64_t count_lines(std::string_view text);

// Reads an entry whole, up to `cap` bytes (cut back to the last complete line). Sets
// stats.bytes and stats.lines for the whole entry; lines beyond the cap are counted
// malformed with a sample. The parser then counts the lines of the returned text.
std::string read_small_entry(ParseContext& ctx, ByteSource& src, size_t cap = size_t{4} << 20);

// Refuses a tool's error text: sets stats.not_collected and counts every line
// unrecognised. True when the text was such an error.
bool refuse_tool_error(ParseContext& ctx, std::string_view text);

// The entry's name for evidence (the display name, as the user sees it).
std::string_view entry_name(const ParseContext& ctx);
EvidenceRef evidence_at(const ParseContext& ctx, const TextLine& line);
void note_malformed(ParseContext& ctx, const TextLine& line);
// Counts `count` lines malformed with one sample (line, offset, text) for all of them.
void add_malformed(ParseContext& ctx, uint64_t count, uint64_t line, uint64_t offset,
                   std::string_view text);

// Whole-string integer; nullopt for empty text, signs other than '-', or trailing bytes.
std::optional<int64_t> parse_int(std::string_view s);
// "key=value" split at the first '='; nullopt when there is none or the key is empty.
std::optional<std::pair<std::string_view, std::string_view>> split_key_value(std::string_view line);

enum class LineVerdict { parsed, unrecognised, malformed };

// A key=value file: blank lines and '#' comments count as parsed, lines without '=' as
// malformed; f(key, value, line) judges the others (an unknown key is unrecognised).
template <class F>
void for_each_key_value(ParseContext& ctx, std::string_view text, F&& f) {
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty() || t.front() == '#') {
      ++ctx.stats.parsed;
      ++ctx.stats.lines_recognised;
      return;
    }
    auto kv = split_key_value(t);
    LineVerdict v = kv ? f(trim(kv->first), trim(kv->second), line) : LineVerdict::malformed;
    // A key=value line is recognised by its shape, whether or not its key is known.
    if (v != LineVerdict::malformed) ++ctx.stats.lines_recognised;
    if (v == LineVerdict::parsed) ++ctx.stats.parsed;
    else if (v == LineVerdict::unrecognised) ++ctx.stats.unrecognised;
    else note_malformed(ctx, line);
  });
}

}  // namespace triage
