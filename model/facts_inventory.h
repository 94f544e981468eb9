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

// Entries read past --max-listed-entries that added no fact, no finding and no manifest
// disagreement: counted per kind (and per skip reason), not listed. Lines and bytes stay in
// the totals; the first few paths are kept as samples.
struct FoldedEntries {
  SourceKind kind = SourceKind::unknown;
  std::string skipped;  // why such members were not read ("FIFO: not read"); "" = read entries
  uint64_t entries = 0;
  uint64_t size = 0;    // stored bytes
  ParseStats stats;     // summed counts only (no samples, no segments)
  std::vector<std::string> samples;  // paths of the first few
  static constexpr size_t kMaxSamples = 3;
};

struct InventoryFacts {
  std::string input_form;               // "directory", "GNU tar format (zstd)", "file"
  std::string manifest_entry;           // the manifest used for reconciliation ("" = none)
  std::vector<InventoryEntry> entries;  // sorted by (path, raw path) after reading
  std::vector<SkippedEntry> skipped;    // sorted by path
  std::vector<ManifestNote> manifest_notes;
  std::vector<FoldedEntries> folded;    // by kind, then skip reason
  uint64_t listed_cap = 0;              // --max-listed-entries when anything was folded
  uint64_t folded_count() const;
};

// "N read, U not recognised" (and how many past --max-listed-entries were counted, not
// listed): the report summaries' Entries line.
std::string entries_text(const InventoryFacts& inventory);

}  // namespace triage
