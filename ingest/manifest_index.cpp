#include "ingest/manifest_index.h"

#include <simdjson.h>

#include <algorithm>

#include "parsers/collector/manifest_common.h"

namespace triage {
namespace {

using simdjson::ondemand::object;

// One item object; an item the contract reader rejects is skipped (the manifest parser
// counts it), so classification keeps what it can.
bool read_item(object obj, ManifestItem& item) {
  std::string error;
  return read_manifest_item(obj, item, error) && !item.path.empty();
}

}  // namespace

// A manifest cut short (a killed run, a truncated copy) still lists the items written
// before the cut: close the JSON after the last complete object and try again.
bool ManifestIndex::load_json(std::string_view text, std::string* error) {
  if (load_json_exact(text, error)) return true;
  std::string first_error = error ? *error : std::string();
  size_t cut = text.size();
  for (int attempt = 0; attempt < 8; ++attempt) {
    cut = text.rfind('}', cut == 0 ? 0 : cut - 1);
    if (cut == std::string_view::npos || cut == 0) break;
    std::string repaired = std::string(text.substr(0, cut + 1)) + "]}";
    items_.clear();
    if (load_json_exact(repaired, nullptr)) {
      if (error) *error = "cut short; items before the cut were read";
      return true;
    }
  }
  items_.clear();
  if (error) *error = first_error;
  return false;
}

bool ManifestIndex::load_json_exact(std::string_view text, std::string* error) {
  list_ = nullptr;
  simdjson::ondemand::parser parser;
  simdjson::padded_string padded(text);
  simdjson::ondemand::document doc;
  object root;
  if (parser.iterate(padded).get(doc) || doc.get_object().get(root)) {
    if (error) *error = "not a JSON object";
    return false;
  }
  bool found_items = false;
  for (auto field : root) {
    std::string_view key;
    if (field.unescaped_key().get(key)) break;
    if (key != "items") continue;
    simdjson::ondemand::array arr;
    if (field.value().get_array().get(arr)) break;
    found_items = true;
    for (auto element : arr) {
      object obj;
      if (element.get_object().get(obj)) {
        if (error) *error = "an item is not a JSON object";
        break;
      }
      ManifestItem item;
      if (read_item(obj, item)) items_.push_back(std::move(item));
    }
    break;
  }
  if (!found_items) {
    if (error && error->empty()) *error = "no \"items\" array (damaged or cut JSON?)";
    if (items_.empty()) return false;
  }
  index();
  return true;
}

bool ManifestIndex::load_jsonl(std::string_view text, std::string* error) {
  list_ = nullptr;
  simdjson::ondemand::parser parser;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) break;  // a partial last line: dropped
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    simdjson::padded_string padded(line);
    simdjson::ondemand::document doc;
    object obj;
    ManifestItem item;
    if (parser.iterate(padded).get(doc) || doc.get_object().get(obj)) continue;
    if (read_item(obj, item)) items_.push_back(std::move(item));
  }
  if (items_.empty()) {
    if (error) *error = "no item lines";
    return false;
  }
  index();
  return true;
}

void ManifestIndex::use_items(const std::vector<ManifestItem>& items, size_t begin, size_t end) {
  items_.clear();
  list_ = &items;
  begin_ = std::min(begin, items.size());
  end_ = std::clamp(end, begin_, items.size());
  index();
}

std::span<const ManifestItem> ManifestIndex::items() const {
  if (list_) return std::span<const ManifestItem>(list_->data() + begin_, end_ - begin_);
  return items_;
}

void ManifestIndex::index() {
  size_t n = items().size();
  by_path_.resize(n);
  for (size_t i = 0; i < n; ++i) by_path_[i] = i;
  std::stable_sort(by_path_.begin(), by_path_.end(),
                   [&](size_t a, size_t b) { return at(a).path < at(b).path; });
  loaded_ = true;
}

const ManifestItem* ManifestIndex::find(std::string_view path) const {
  auto it = std::lower_bound(by_path_.begin(), by_path_.end(), path,
                             [&](size_t i, std::string_view p) { return at(i).path < p; });
  if (it == by_path_.end() || at(*it).path != path) return nullptr;
  return &at(*it);
}

}  // namespace triage
