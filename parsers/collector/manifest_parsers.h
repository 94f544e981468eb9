#pragma once
// The collector's manifest: manifest.json (written at the end) and manifest.items.jsonl
// (appended as each step ends; a killed run leaves only this, maybe with a partial line).
#include "parsers/common/parser.h"

namespace triage {

void parse_manifest_json(ParseContext& ctx, ByteSource& src);

// What the input stage needs to index the items of one manifest.json without a second parse.
struct ManifestJsonRead {
  // [items_begin, items_end) of facts.manifest.json_items: the items of the document's first
  // "items" array, up to its first element that is not an object.
  size_t items_begin = 0, items_end = 0;
  bool items_array = false;      // the first "items" key holds an array
  bool not_object_item = false;  // that array holds an element that is not an object
  bool damaged = false;          // cut short, not JSON, or not an object
  uint64_t bytes = 0;
  std::string whole_text;        // when damaged and small: the whole text
};
// parse_manifest_json, telling what it read. The items array is read one item at a time
// (manifest_splitter.h): memory holds one item, not the document.
ManifestJsonRead read_manifest_json(ParseContext& ctx, ByteSource& src);
void parse_manifest_items_jsonl(ParseContext& ctx, ByteSource& src);

// After the whole bundle is read: picks the item list (manifest.json's, else the JSONL's),
// then checks every item against the inventory (input-damaged/checksum,
// bundle/missing-entry).
void finalize_manifest(BundleFacts& facts);

}  // namespace triage
