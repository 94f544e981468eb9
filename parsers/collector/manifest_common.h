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

// A vector grown by doubling holds up to three times its items while it moves them (100,000
// items: 55 MiB). After the first kReserveAfterItems items, their mean length (first_offset to
// offset over count - 1 items) and the entry's size (from the archive or the file system) tell
// how many will come: `items` is reserved once for about that many. Never more than an item
// per 64 bytes of the entry (an item that short holds a path and a status at most); a wrong
// guess only means the vector grows as before.
constexpr size_t kReserveAfterItems = 256;
void reserve_items(std::vector<ManifestItem>& items, uint64_t entry_size, uint64_t first_offset,
                   uint64_t offset, size_t count);

}  // namespace triage
