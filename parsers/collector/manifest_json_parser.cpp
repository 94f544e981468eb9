// manifest.json read whole: the reader of a small manifest that is damaged or not an object
// (manifest_json_stream.cpp reads every other one item by item).
#include <fmt/format.h>

#include "parsers/collector/manifest_common.h"
#include "parsers/collector/manifest_json_internal.h"
#include "parsers/collector/manifest_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace od = simdjson::ondemand;

namespace {


// 1-based line of a byte offset, counted forward from the previous call.
class LineCounter {
 public:
  explicit LineCounter(std::string_view text) : text_(text) {}
  uint64_t line_at(size_t offset) {
    for (; pos_ < offset && pos_ < text_.size(); ++pos_) line_ += text_[pos_] == '\n';
    return line_;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  uint64_t line_ = 1;
};

// A document cut short (a truncated archive member): the text up to the last complete
// object or array inside it, with the still-open brackets closed. nullopt when the document
// is not cut short (balanced, or broken some other way).
std::optional<std::pair<std::string, size_t>> close_cut_document(std::string_view text) {
  std::string stack, stack_at_good;
  size_t good = 0;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') stack += c;
    else if (c == '}' || c == ']') {
      if (stack.empty()) return std::nullopt;
      stack.pop_back();
      good = i + 1, stack_at_good = stack;
    }
  }
  if (stack.empty() || good == 0 || stack_at_good.empty()) return std::nullopt;
  std::string closed(text.substr(0, good));
  for (auto it = stack_at_good.rbegin(); it != stack_at_good.rend(); ++it) closed += *it == '{' ? '}' : ']';
  return std::make_pair(std::move(closed), good);
}

struct Damage {
  size_t offset = 0;
  std::string what;
};

// Reads the items array; returns damage that stops the reading of the document.
std::optional<Damage> read_items(ParseContext& ctx, od::array items, std::string_view text,
                                 const char* base, LineCounter& lines) {
  ManifestFacts& m = ctx.facts.manifest;
  size_t index = 0;
  for (auto element : items) {
    od::value v;
    if (auto e = std::move(element).get(v); e) return Damage{0, simdjson::error_message(e)};
    size_t offset = static_cast<size_t>(v.raw_json_token().data() - base);
    uint64_t line = lines.line_at(offset);
    ++index;
    od::object obj;
    if (v.get_object().get(obj)) {
      m.notes.push_back(fmt::format("manifest.json line {}: item {} is not an object", line, index));
      continue;
    }
    ManifestItem item;
    std::string error;
    bool ok = read_manifest_item(obj, item, error);
    // The excerpt is cut at kMaxExcerpt anyway: look no further for the line's end (a manifest
    // written on one line made this search quadratic: 100k items, 42 MB, 85 s).
    std::string_view rest = text.substr(offset, EvidenceRef::kMaxExcerpt + 1);
    item.evidence = make_evidence(entry_name(ctx), line, offset, rest.substr(0, rest.find('\n')));
    if (error == "unreadable field") return Damage{offset, error};
    if (!ok) {
      m.notes.push_back(fmt::format("manifest.json line {}: item {} skipped: {}", line, index, error));
      continue;
    }
    m.json_items.push_back(std::move(item));
  }
  return std::nullopt;
}

std::optional<Damage> read_document(ParseContext& ctx, const simdjson::padded_string& json,
                                    std::string_view text, LineCounter& lines) {
  od::parser parser;
  od::document doc;
  od::object top;
  if (auto e = parser.iterate(json).get(doc); e) return Damage{0, simdjson::error_message(e)};
  if (auto e = doc.get_object().get(top); e) return Damage{0, simdjson::error_message(e)};
  for (auto f : top) {
    od::field field;
    std::string_view key;
    if (auto e = std::move(f).get(field); e) return Damage{0, simdjson::error_message(e)};
    if (auto e = field.unescaped_key().get(key); e) return Damage{0, simdjson::error_message(e)};
    if (key != "items") {
      read_top_field(key, field.value(), ctx.facts.manifest);
      continue;
    }
    od::array items;
    if (field.value().get_array().get(items)) {
      ctx.facts.manifest.notes.push_back("manifest.json: \"items\" is not an array");
      continue;
    }
    if (auto d = read_items(ctx, items, text, json.data(), lines)) return d;
  }
  return std::nullopt;
}

}  // namespace

// The whole text at once: used for a small manifest that the splitter found damaged or not an
// object, so that its notes, offsets and repairs stay those of the whole-document reader.
void read_whole_manifest_json(ParseContext& ctx, std::string_view text) {
  ManifestFacts& m = ctx.facts.manifest;
  std::string_view body = text;
  while (!body.empty() && (body.front() == ' ' || body.front() == '\n' || body.front() == '\r' ||
                           body.front() == '\t'))
    body.remove_prefix(1);
  if (body.empty() || body.front() != '{') {
    if (refuse_tool_error(ctx, text)) return;
    add_malformed(ctx, count_lines(text), 1, 0, text);
    m.notes.push_back("manifest.json is not a JSON object");
    return;
  }

  uint64_t total = count_lines(text);
  std::optional<Damage> damage;
  if (auto closed = close_cut_document(text)) {
    // Read what precedes the cut; everything after the last complete value is damaged.
    simdjson::padded_string json(closed->first);
    LineCounter lines(closed->first);
    damage = read_document(ctx, json, closed->first, lines);
    if (!damage) damage = Damage{closed->second, "cut short"};
  } else {
    simdjson::padded_string json(text);
    LineCounter lines(text);
    damage = read_document(ctx, json, text, lines);
  }
  if (damage) {
    LineCounter lines(text);
    uint64_t first_bad = damage->offset == 0 ? 1 : lines.line_at(damage->offset);
    ctx.stats.parsed += first_bad - 1;
    add_malformed(ctx, total - (first_bad - 1), first_bad, damage->offset,
                  "JSON damaged: " + damage->what);
    m.notes.push_back(fmt::format("manifest.json is damaged from line {} ({}); {} items read before it",
                                  first_bad, damage->what, m.json_items.size()));
  } else {
    ctx.stats.parsed += total;
  }
  note_format(m);
}

}  // namespace triage
