#pragma once
// The collector's manifest as the input stage needs it: the items, found by bundle path,
// to classify entries and to reconcile what was read with what the manifest lists.
// The input stage indexes the items the manifest parsers read (use_items); load_json and
// load_jsonl read a text themselves (a small damaged manifest.json, tests).
#include <cstdint>
#include <optional>
#include <span>
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

  // The items the manifest's parser read: [begin, end) of `items`, which must outlive the
  // index and keep those elements (appending to it is fine). One parse serves both.
  void use_items(const std::vector<ManifestItem>& items, size_t begin, size_t end);

  bool loaded() const { return loaded_; }
  const ManifestItem* find(std::string_view path) const;
  std::span<const ManifestItem> items() const;
  std::string origin;  // the entry it was read from

 private:
  bool load_json_exact(std::string_view text, std::string* error);
  void index();
  const ManifestItem& at(size_t i) const { return list_ ? (*list_)[begin_ + i] : items_[i]; }
  std::vector<ManifestItem> items_;  // read here (load_json, load_jsonl)
  const std::vector<ManifestItem>* list_ = nullptr;  // or read by the parser (use_items)
  size_t begin_ = 0, end_ = 0;
  std::vector<size_t> by_path_;  // indices into items(), sorted by path
  bool loaded_ = false;
};


}  // namespace triage
