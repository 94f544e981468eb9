#pragma once
// Shared by the two readers of manifest.json: item by item as it streams in
// (manifest_json_stream.cpp) and whole, for a small damaged one (manifest_json_parser.cpp).
#include <simdjson.h>

#include <string_view>

#include "model/facts_manifest.h"
#include "parsers/common/parser.h"

namespace triage {

// One top-level field other than "items"; a value of the wrong type becomes a note.
void read_top_field(std::string_view key, simdjson::ondemand::value v, ManifestFacts& m);
// The notes on "format" and "format_version", once the document is read.
void note_format(ManifestFacts& m);
// The whole-document reader (stats.bytes and stats.lines already set for `text`).
void read_whole_manifest_json(ParseContext& ctx, std::string_view text);

}  // namespace triage
