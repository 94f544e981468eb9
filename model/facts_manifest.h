#pragma once
// The collector's own record of every step (manifest.json, manifest.items.jsonl): what was
// collected and, for what is missing, why. Filled by the manifest parsers.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/evidence.h"

namespace triage {

// Outcome of one collection step (contract: ok, absent, denied, skipped, failed,
// timed_out, abandoned). `other` keeps a status this analyzer does not know.
enum class ItemStatus { ok, absent, denied, skipped, failed, timed_out, abandoned, other };
std::string_view to_string(ItemStatus s);
ItemStatus parse_item_status(std::string_view s);

struct ManifestItem {
  std::string path;                       // relative to the bundle root
  std::string source;                     // the file or command it came from
  std::optional<std::vector<std::string>> exec;  // argv; nullopt for a file copy
  ItemStatus status = ItemStatus::other;
  std::string status_text;                // as written (for `other`)
  std::string reason;                     // tool_missing, source_missing, permission, ...
  std::string error;                      // a short code
  std::optional<int64_t> rc;
  std::optional<int64_t> started_utc_us;
  std::optional<int64_t> duration_ms;
  std::optional<int64_t> bytes;
  std::string sha256;                     // lowercase hex, empty when unknown
  std::optional<int64_t> source_mtime_utc_us;
  bool truncated = false;
  std::vector<std::pair<uint64_t, uint64_t>> kept_ranges;  // byte ranges of the source kept
  EvidenceRef evidence;
};

// manifest.json `npu_presence` (docs/bundle-layout.md): whether this host or container shows
// an NPU at all. A count or flag is nullopt where the manifest wrote null.
struct NpuPresence {
  std::string state;  // npu_visible | devices_not_visible | no_npu | unknown (as written)
  std::optional<int64_t> ascend_modules_loaded, device_nodes, npu_pci_devices, npu_processes;
  std::optional<bool> driver_installed;
};

struct ManifestFacts {
  bool has_manifest_json = false;
  bool has_items_jsonl = false;
  std::string format;                     // "ascend-bundle"
  std::optional<int64_t> format_version;
  std::string collector_version;
  std::string host;
  std::optional<int64_t> collected_at_utc_us;
  std::optional<int64_t> finished_utc_us;
  std::vector<std::string> args;          // the collector's command-line arguments
  std::optional<int64_t> uid;
  std::vector<std::string> groups;
  std::string sudo_user;
  std::string locale;
  std::optional<bool> in_container;
  std::optional<NpuPresence> npu_presence;  // nullopt: an older collector (read as unknown)
  std::vector<std::pair<std::string, std::string>> redaction;  // kind -> what the manifest says
  std::vector<ManifestItem> json_items;   // items of manifest.json
  std::vector<ManifestItem> jsonl_items;  // items of manifest.items.jsonl
  uint64_t jsonl_partial_lines_dropped = 0;
  // The list analyses use (set by finalize): manifest.json's items, else the JSONL's.
  std::vector<ManifestItem> items;
  std::string items_origin;               // "manifest.json", "manifest.items.jsonl", ""
  std::vector<std::string> notes;         // format_version > 1, disagreements, drops
  EvidenceRef evidence;                   // manifest.json as a whole

  const ManifestItem* item(std::string_view path) const {
    for (const auto& i : items)
      if (i.path == path) return &i;
    return nullptr;
  }
};

}  // namespace triage
