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
                             // ("" when the entry was not read to its end: a limit or damage)
  bool has_parser = false;   // a parser read the entry (else only its lines were counted)
  ParseStats stats;
};

// A member that is not a regular file, directory or link: listed, never opened.
struct SkippedEntry {
  EntryInfo info;
  std::string reason;  // "character device", "FIFO", "unreadable: Permission denied"
};

// A disagreement between the manifest and the input that belongs to no entry
// (an item listed as collected but missing, an unreadable manifest).
struct ManifestNote {
  std::string path;
  std::string note;
};

struct InventoryFacts {
  std::string input_form;               // "directory", "GNU tar format (zstd)", "file"
  std::string manifest_entry;           // the manifest used for reconciliation ("" = none)
  std::vector<InventoryEntry> entries;  // sorted by (path, raw path) after reading
  std::vector<SkippedEntry> skipped;    // sorted by path
  std::vector<ManifestNote> manifest_notes;
};

}  // namespace triage
