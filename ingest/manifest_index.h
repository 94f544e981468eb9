#pragma once
// The collector's manifest as the input stage needs it: the items, found by bundle path,
// to classify entries and to reconcile what was read with what the manifest lists.
// Items are read with the manifest parser's own item reader (parsers/collector/manifest_common.h).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/facts_manifest.h"

namespace triage {

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


}  // namespace triage
