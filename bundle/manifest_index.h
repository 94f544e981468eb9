#pragma once
// The collector's manifest as the input stage needs it: the items, found by bundle path,
// to classify entries and to reconcile what was read with what the manifest lists.
// (The manifest's facts — host, times, statuses — are the manifest parser's business.)
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace triage {

struct ManifestItem {
  std::string path;                // bundle-relative
  std::string source;              // original path on the host, for file copies
  std::vector<std::string> exec;   // argv, empty for a file copy
  std::string status;              // ok, absent, denied, skipped, failed, timed_out, abandoned
  std::optional<uint64_t> bytes;
  std::string sha256;
  bool truncated = false;
};

class ManifestIndex {
 public:
  // manifest.json (an object with "items") or manifest.items.jsonl (one item per line; a
  // last line without a newline is dropped, as the contract says). False and *error when
  // nothing usable was found.
  bool load_json(std::string_view text, std::string* error);
  bool load_jsonl(std::string_view text, std::string* error);

  bool loaded() const { return loaded_; }
  const ManifestItem* find(std::string_view path) const;
  const std::vector<ManifestItem>& items() const { return items_; }
  std::string origin;  // the entry it was read from

 private:
  bool load_json_exact(std::string_view text, std::string* error);
  void index();
  std::vector<ManifestItem> items_;
  std::vector<size_t> by_path_;  // indices into items_, sorted by path
  bool loaded_ = false;
};

// JSON strings of the contract carry bytes as \u00XX: decoded JSON yields U+0000..U+00FF,
// which this maps back to single bytes. Other UTF-8 is left as it is.
std::string bytes_from_json_text(std::string_view utf8);

}  // namespace triage
