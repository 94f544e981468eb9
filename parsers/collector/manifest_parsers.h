#pragma once
// The collector's manifest: manifest.json (written at the end) and manifest.items.jsonl
// (appended as each step ends; a killed run leaves only this, maybe with a partial line).
#include "parsers/common/parser.h"

namespace triage {

void parse_manifest_json(ParseContext& ctx, ByteSource& src);
void parse_manifest_items_jsonl(ParseContext& ctx, ByteSource& src);

// After the whole bundle is read: picks the item list (manifest.json's, else the JSONL's),
// then checks every item against the inventory (input-damaged/checksum,
// bundle/missing-entry).
void finalize_manifest(BundleFacts& facts);

}  // namespace triage
