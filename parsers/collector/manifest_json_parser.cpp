// manifest.json: the collector's record of the run and of every step.
#include <fmt/format.h>

#include "parsers/collector/manifest_common.h"
#include "parsers/collector/manifest_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace od = simdjson::ondemand;

namespace {

constexpr int64_t kKnownFormatVersion = 1;
constexpr size_t kMaxManifestBytes = size_t{256} << 20;

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

std::string_view strip_blanks(std::string_view tok) {
  while (!tok.empty() && (tok.back() == ' ' || tok.back() == '\n' || tok.back() == '\r' ||
                          tok.back() == '\t'))
    tok.remove_suffix(1);
  return tok;
}

bool read_redaction(od::value v, ManifestFacts& m) {
  od::object o;
  if (v.get_object().get(o)) return false;
  for (auto f : o) {
    od::field field;
    std::string_view k;
    if (std::move(f).get(field) || field.unescaped_key().get(k)) return false;
    std::string_view tok = strip_blanks(field.value().raw_json_token());
    std::string text;
    if (!decode_contract_string(tok, text)) text = std::string(tok);  // a count, a list
    m.redaction.emplace_back(std::string(k), std::move(text));
  }
  return true;
}

bool read_npu_presence(od::value v, ManifestFacts& m) {
  od::object o;
  if (v.get_object().get(o)) return false;
  NpuPresence p;
  for (auto f : o) {
    od::field field;
    std::string_view k;
    if (std::move(f).get(field) || field.unescaped_key().get(k)) return false;
    od::value x = field.value();
    bool is_null = false;
    if (!x.is_null().get(is_null) && is_null) continue;  // null: not decided by the collector
    bool ok = true;
    if (k == "state") ok = read_contract_text(x, p.state);
    else if (k == "ascend_modules_loaded") ok = read_contract_int(x, p.ascend_modules_loaded);
    else if (k == "device_nodes") ok = read_contract_int(x, p.device_nodes);
    else if (k == "npu_pci_devices") ok = read_contract_int(x, p.npu_pci_devices);
    else if (k == "npu_processes") ok = read_contract_int(x, p.npu_processes);
    else if (k == "driver_installed") ok = read_contract_bool(x, p.driver_installed);
    if (!ok) return false;
  }
  m.npu_presence = std::move(p);
  return true;
}

void read_top_field(std::string_view key, od::value v, ManifestFacts& m) {
  bool ok = true;
  if (key == "format") ok = read_contract_text(v, m.format);
  else if (key == "format_version") ok = read_contract_int(v, m.format_version);
  else if (key == "collector_version") ok = read_contract_text(v, m.collector_version);
  else if (key == "host") ok = read_contract_text(v, m.host);
  else if (key == "collected_at_utc") ok = read_contract_time(v, m.collected_at_utc_us);
  else if (key == "finished_utc") ok = read_contract_time(v, m.finished_utc_us);
  else if (key == "uid") ok = read_contract_int(v, m.uid);
  else if (key == "sudo_user") ok = read_contract_text(v, m.sudo_user);
  else if (key == "locale") ok = read_contract_text(v, m.locale);
  else if (key == "in_container") ok = read_contract_bool(v, m.in_container);
  else if (key == "redaction") ok = read_redaction(v, m);
  else if (key == "npu_presence") ok = read_npu_presence(v, m);
  else if (key == "args" || key == "groups") {
    std::vector<std::string>& out = key == "args" ? m.args : m.groups;
    od::json_type t;
    if (!v.type().get(t) && t == od::json_type::string) {  // tolerated: one string
      std::string s;
      ok = read_contract_text(v, s);
      out = {s};
    } else {
      std::optional<std::vector<std::string>> list;
      ok = read_contract_strings(v, list);
      if (list) out = std::move(*list);
    }
  }
  else if (key == "notes") {  // the collector on its own run: a full disk, a hung archiver, ...
    std::optional<std::vector<std::string>> list;
    ok = read_contract_strings(v, list);
    if (list)
      for (auto& n : *list) m.notes.push_back(fmt::format("collector: {}", n));
  }
  // other keys: a newer collector's additions, ignored
  if (!ok) m.notes.push_back(fmt::format("manifest.json: field \"{}\" has an unexpected value", key));
}

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

void parse_manifest_json(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src, kMaxManifestBytes);
  ManifestFacts& m = ctx.facts.manifest;
  m.has_manifest_json = true;
  m.evidence = make_evidence(entry_name(ctx), 0, 0, "");
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
  if (!m.format.empty() && m.format != "ascend-bundle")
    m.notes.push_back(fmt::format("manifest.json format is \"{}\", not \"ascend-bundle\"", m.format));
  if (m.format_version && *m.format_version > kKnownFormatVersion)
    m.notes.push_back(fmt::format(
        "manifest.json format_version {} is newer than this analyzer knows ({}): read what is "
        "known, ignored the rest",
        *m.format_version, kKnownFormatVersion));
  else if (!m.format_version)
    m.notes.push_back("manifest.json has no format_version: read as version 1");
}

}  // namespace triage
