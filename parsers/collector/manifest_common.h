#pragma once
// Shared by the manifest.json and manifest.items.jsonl parsers: the contract's JSON string
// encoding and the reading of one item.
//
// Encoding (bundle contract): collector JSON is pure ASCII; every byte outside 0x20-0x7E is
// written \u00XX and means the raw byte XX (so GBK file names survive), not the code point
// U+00XX; a missing number is null. simdjson's own unescaping would turn \u00e4 into UTF-8,
// so strings are decoded here from their raw tokens.
#include <simdjson.h>

#include <string>
#include <string_view>

#include "model/facts_manifest.h"

namespace triage {

// Decodes a raw JSON string token (with its quotes, possibly followed by blanks) by the
// contract's rules: \u0000-\u00ff are raw bytes; larger code points (not written by the
// collector, tolerated) become UTF-8. False on a malformed token.
bool decode_contract_string(std::string_view token, std::string& out);

// Readers of contract values. Each returns false when the value has the wrong type;
// null reads as "unknown" (empty text, nullopt).
bool read_contract_text(simdjson::ondemand::value v, std::string& out);
bool read_contract_int(simdjson::ondemand::value v, std::optional<int64_t>& out);
bool read_contract_bool(simdjson::ondemand::value v, std::optional<bool>& out);
// A UTC time: ISO 8601 text ("2026-03-01T12:00:00Z") or a number of epoch seconds.
bool read_contract_time(simdjson::ondemand::value v, std::optional<int64_t>& utc_us);
// An array of strings (numbers are kept as their text); null gives nullopt.
bool read_contract_strings(simdjson::ondemand::value v,
                           std::optional<std::vector<std::string>>& out);

// Reads one item object into `item`. False with `error` naming the first bad field; a
// missing "path" is an error too (an item says what it is about).
bool read_manifest_item(simdjson::ondemand::object obj, ManifestItem& item, std::string& error);

}  // namespace triage
