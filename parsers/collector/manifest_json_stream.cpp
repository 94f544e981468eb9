// manifest.json: the collector's record of the run and of every step, read as it streams in.
// The splitter hands over each top-level field and each item alone; each is parsed by
// simdjson on its own, so memory holds one item (at most kMaxValueBytes), not the document
// (issue 35: 100,000 items, 42 MB, took 592 MiB read whole and parsed twice).
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "parsers/collector/manifest_common.h"
#include "parsers/collector/manifest_json_internal.h"
#include "parsers/collector/manifest_parsers.h"
#include "parsers/collector/manifest_splitter.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace od = simdjson::ondemand;

namespace {

constexpr size_t kMaxManifestBytes = size_t{256} << 20;
constexpr size_t kMaxValueBytes = size_t{1} << 20;  // one item, or one top-level field
constexpr size_t kKeepWholeBytes = size_t{1} << 20;  // a damaged manifest this small is reread whole

struct Damage {
  uint64_t offset = 0, line = 1;
  std::string what;
};

// The fields read_whole_manifest_json would set, put back when it takes over.
class Snapshot {
 public:
  explicit Snapshot(ManifestFacts& m) : json_items_(m.json_items.size()) {
    std::vector<ManifestItem> a = std::move(m.json_items), b = std::move(m.jsonl_items), c = std::move(m.items);
    saved_ = m;
    m.json_items = std::move(a), m.jsonl_items = std::move(b), m.items = std::move(c);
  }
  void restore(ManifestFacts& m) const {
    std::vector<ManifestItem> a = std::move(m.json_items), b = std::move(m.jsonl_items), c = std::move(m.items);
    a.resize(json_items_);
    m = saved_;
    m.json_items = std::move(a), m.jsonl_items = std::move(b), m.items = std::move(c);
  }

 private:
  ManifestFacts saved_;
  size_t json_items_;
};

class StreamReader {
 public:
  StreamReader(ParseContext& ctx, ManifestJsonRead& out) : ctx_(ctx), m_(ctx.facts.manifest), out_(out) {}

  // One top-level field, parsed as the document {key: value}.
  std::optional<Damage> field(const ManifestSplitter::Part& p) {
    if (p.key == "\"items\"") {  // an array comes as items; anything else is not one
      m_.notes.push_back("manifest.json: \"items\" is not an array");
      items_key_seen_ = true;
      return std::nullopt;
    }
    pad_.assign("{");
    pad_.append(p.key).append(":").append(p.text).append("}");
    od::document doc;
    od::object top;
    if (auto e = iterate(doc); e) return Damage{p.offset, p.line, simdjson::error_message(e)};
    if (auto e = doc.get_object().get(top); e) return Damage{p.offset, p.line, simdjson::error_message(e)};
    for (auto f : top) {
      od::field field;
      std::string_view key;
      if (auto e = std::move(f).get(field); e) return Damage{p.offset, p.line, simdjson::error_message(e)};
      if (auto e = field.unescaped_key().get(key); e) return Damage{p.offset, p.line, simdjson::error_message(e)};
      if (key != "items") read_top_field(key, field.value(), m_);  // "items" spelt with escapes: ignored
    }
    return std::nullopt;
  }

  void items_begin() {
    in_first_ = !items_key_seen_;
    items_key_seen_ = true;
    if (in_first_) out_.items_array = true;
  }

  // One element of "items", parsed alone.
  std::optional<Damage> item(const ManifestSplitter::Part& p) {
    pad_.assign(p.text);
    od::document doc;
    if (auto e = iterate(doc); e)
      return Damage{p.offset, p.line, fmt::format("item {}: {}", p.index, simdjson::error_message(e))};
    od::object obj;
    if (doc.get_object().get(obj)) {
      m_.notes.push_back(fmt::format("manifest.json line {}: item {} is not an object", p.line, p.index));
      if (in_first_) out_.not_object_item = true;
      return std::nullopt;
    }
    ManifestItem item;
    std::string error;
    bool ok = read_manifest_item(obj, item, error);
    // The excerpt is the line from the item's start, cut at kMaxExcerpt (the window's length).
    item.evidence = make_evidence(entry_name(ctx_), p.line, p.offset, p.window.substr(0, p.window.find('\n')));
    if (error == "unreadable field") return Damage{p.offset, p.line, error};
    if (!ok) {
      m_.notes.push_back(fmt::format("manifest.json line {}: item {} skipped: {}", p.line, p.index, error));
      return std::nullopt;
    }
    if (++count_ == 1) first_offset_ = p.offset;
    if (count_ == kReserveAfterItems) reserve_items(m_.json_items, ctx_.entry.size, first_offset_, p.offset, count_);
    m_.json_items.push_back(std::move(item));
    if (in_first_ && !out_.not_object_item) out_.items_end = m_.json_items.size();
    return std::nullopt;
  }

 private:
  simdjson::error_code iterate(od::document& doc) {
    size_t n = pad_.size();
    pad_.resize(n + simdjson::SIMDJSON_PADDING);
    return parser_.iterate(pad_.data(), n, pad_.size()).get(doc);
  }

  ParseContext& ctx_;
  ManifestFacts& m_;
  ManifestJsonRead& out_;
  od::parser parser_;  // grows to the largest value read, at most about kMaxValueBytes
  std::string pad_;    // the value with simdjson's padding, reused
  size_t count_ = 0;
  uint64_t first_offset_ = 0;
  bool items_key_seen_ = false, in_first_ = false;
};

}  // namespace

ManifestJsonRead read_manifest_json(ParseContext& ctx, ByteSource& src) {
  ManifestFacts& m = ctx.facts.manifest;
  ManifestJsonRead out;
  m.has_manifest_json = true;
  m.evidence = make_evidence(entry_name(ctx), 0, 0, "");
  out.items_begin = out.items_end = m.json_items.size();
  Snapshot snapshot(m);

  ManifestSplitter split(src, kMaxValueBytes, EvidenceRef::kMaxExcerpt + 1, kKeepWholeBytes, kMaxManifestBytes);
  StreamReader reader(ctx, out);
  ManifestSplitter::Part part;
  std::optional<Damage> damage;
  bool not_object = false;
  while (!damage && split.next(part)) {
    switch (part.kind) {
      case ManifestSplitter::Part::Kind::field: damage = reader.field(part); break;
      case ManifestSplitter::Part::Kind::items: reader.items_begin(); break;
      case ManifestSplitter::Part::Kind::item: damage = reader.item(part); break;
      case ManifestSplitter::Part::Kind::end: break;
      case ManifestSplitter::Part::Kind::damaged:
        not_object = part.not_object;
        damage = Damage{part.offset, part.line, std::string(part.text)};
        break;
    }
  }
  split.drain();
  out.bytes = split.bytes();
  ctx.stats.bytes = split.bytes();
  ctx.stats.lines = split.lines();
  uint64_t total = split.lines();
  if (split.over_max() && damage) damage->what = fmt::format("larger than {} bytes", kMaxManifestBytes);
  out.damaged = damage.has_value();

  if (damage && split.kept()) {  // small: the whole-document reader, as before streaming
    snapshot.restore(m);
    out.items_end = out.items_begin;
    out.whole_text = *split.kept();
    read_whole_manifest_json(ctx, out.whole_text);
    return out;
  }
  if (not_object) {  // larger than kKeepWholeBytes and not JSON
    add_malformed(ctx, total, 1, 0, "(not a JSON object)");
    m.notes.push_back("manifest.json is not a JSON object");
    return out;
  }
  if (damage) {
    // A cut after a last newline is found on the line past the last one.
    uint64_t first_bad = std::min(std::max<uint64_t>(damage->line, 1), std::max<uint64_t>(total, 1));
    ctx.stats.parsed += first_bad - 1;
    add_malformed(ctx, total - (first_bad - 1), first_bad, damage->offset, "JSON damaged: " + damage->what);
    m.notes.push_back(fmt::format("manifest.json is damaged from line {} ({}); {} items read before it",
                                  first_bad, damage->what, m.json_items.size()));
  } else {
    ctx.stats.parsed += total;
  }
  note_format(m);
  return out;
}

void parse_manifest_json(ParseContext& ctx, ByteSource& src) { read_manifest_json(ctx, src); }

}  // namespace triage
