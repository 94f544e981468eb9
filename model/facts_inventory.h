#pragma once
// What was read: every entry, how it was classified and why, and its parse statistics.
#include <string>
#include <vector>

#include "model/entry.h"
#include "model/parse_stats.h"
#include "model/source_kind.h"

namespace triage {

enum class ClassifiedBy { layout_path, manifest, content_sniff, file_type, none };
std::string_view to_string(ClassifiedBy c);

struct InventoryEntry {
  EntryInfo info;
  SourceKind kind = SourceKind::unknown;
  ClassifiedBy classified_by = ClassifiedBy::none;
  std::string reason;        // why this kind (or why every sniff failed)
  std::string manifest_note; // a disagreement with the manifest, if any
  std::string sha256;        // hex of the stored bytes (before decompression), computed while reading
  ParseStats stats;
};

struct InventoryFacts {
  std::vector<InventoryEntry> entries;  // sorted by (input, path) after reading
};

}  // namespace triage
