// After the whole bundle is read: which item list counts, and whether the bundle still holds
// what the collector wrote (sizes and sha256 against the inventory).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "knowledge/finding_texts.h"
#include "parsers/collector/manifest_parsers.h"

namespace triage {
namespace {

constexpr size_t kMaxEvidence = 20;

// Inventory entries by path, and the sorted paths for "anything under this directory".
class EntryIndex {
 public:
  explicit EntryIndex(const InventoryFacts& inv) {
    for (const auto& e : inv.entries) {
      by_path_.emplace(e.info.path, &e);
      sorted_.push_back(e.info.path);
    }
    std::sort(sorted_.begin(), sorted_.end());
  }
  const InventoryEntry* find(std::string_view path) const {
    auto it = by_path_.find(path);
    return it == by_path_.end() ? nullptr : it->second;
  }
  // An item may name a directory (an export written as a tree).
  bool has_entries_under(std::string_view path) const {
    if (path.empty()) return false;
    std::string prefix(path);
    if (prefix.back() != '/') prefix += '/';
    auto it = std::lower_bound(sorted_.begin(), sorted_.end(), std::string_view(prefix));
    return it != sorted_.end() && it->substr(0, prefix.size()) == prefix;
  }

 private:
  std::unordered_map<std::string_view, const InventoryEntry*> by_path_;
  std::vector<std::string_view> sorted_;
};

// After this only `items` is read: the two lists it was chosen from are let go (moved, or
// freed: 100,000 JSONL items beside manifest.json's are about 90 MiB). Run twice, it keeps
// what it chose the first time.
void choose_items(ManifestFacts& m) {
  if (m.json_items.empty() && m.jsonl_items.empty() && !m.items.empty()) return;
  if (!m.json_items.empty() || (m.has_manifest_json && m.jsonl_items.empty())) {
    m.items_origin = m.has_manifest_json ? "manifest.json" : "";
    if (!m.jsonl_items.empty() && m.jsonl_items.size() != m.json_items.size())
      m.notes.push_back(fmt::format(
          "manifest.json lists {} items, manifest.items.jsonl {}: used manifest.json's",
          m.json_items.size(), m.jsonl_items.size()));
    m.items = std::move(m.json_items);  // moved, not copied
  } else if (!m.jsonl_items.empty()) {
    m.items = std::move(m.jsonl_items);
    m.items_origin = "manifest.items.jsonl";
    m.notes.push_back(m.has_manifest_json
                          ? "manifest.json holds no items: used manifest.items.jsonl"
                          : "no manifest.json (the collector did not finish?): items from "
                            "manifest.items.jsonl");
  }
  std::vector<ManifestItem>().swap(m.json_items);
  std::vector<ManifestItem>().swap(m.jsonl_items);
}

void check_against_inventory(BundleFacts& facts) {
  const ManifestFacts& m = facts.manifest;
  Finding checksum, missing;
  std::vector<std::string> changed, absent;
  EntryIndex index(facts.inventory);
  for (const auto& item : m.items) {
    const InventoryEntry* e = index.find(item.path);
    if (!e) {
      if (item.status == ItemStatus::ok && !index.has_entries_under(item.path)) {
        absent.push_back(item.path);
        if (missing.evidence.size() < kMaxEvidence) missing.evidence.push_back(item.evidence);
      }
      continue;
    }
    std::vector<std::string> diffs;
    if (item.bytes && static_cast<uint64_t>(*item.bytes) != e->info.size)
      diffs.push_back(fmt::format("{} bytes in the manifest, {} in the bundle", *item.bytes,
                                  e->info.size));
    if (!item.sha256.empty() && !e->sha256.empty()) {
      std::string have = e->sha256;
      std::transform(have.begin(), have.end(), have.begin(),
                     [](char c) { return c >= 'A' && c <= 'F' ? static_cast<char>(c + 32) : c; });
      if (have != item.sha256)
        diffs.push_back(fmt::format("sha256 {} in the manifest, {} in the bundle",
                                    item.sha256.substr(0, 16), have.substr(0, 16)));
    }
    if (diffs.empty()) continue;
    std::string joined;
    for (const auto& d : diffs) joined += (joined.empty() ? "" : "; ") + d;
    changed.push_back(fmt::format("{}: {}", item.path, joined));
    if (checksum.evidence.size() + 1 < kMaxEvidence) {
      checksum.evidence.push_back(item.evidence);
      checksum.evidence.push_back(make_evidence(e->info.display.empty() ? e->info.path : e->info.display,
                                                0, 0, joined));
    }
  }
  auto list = [](const std::vector<std::string>& v) {
    std::string s = fmt::format("{}", fmt::join(v.begin(), v.begin() + std::min<size_t>(v.size(), 10), ", "));
    if (v.size() > 10) s += fmt::format(" and {} more", v.size() - 10);
    return s;
  };
  // One finding per kind of disagreement, its words from knowledge/findings/model.tsv (the
  // built-in file: the manifest is checked while the bundle is finished, before any analysis).
  auto raise = [&](Finding& f, std::string_view id, const std::vector<std::string>& files, std::string_view what) {
    if (files.empty()) return;
    f.id = std::string(id);
    f.severity = Severity::warning;
    f.confidence = Confidence::high;
    f.host = facts.host;
    f.observed = fmt::format("{}: {}.", what, list(files));
    render_finding_words(f, finding_texts_for(""), {{"count", std::to_string(files.size())}});
    f.value("files", std::to_string(files.size()));
    facts.input_findings.push_back(std::move(f));
  };
  raise(checksum, "input-damaged/checksum", changed, "Size or sha256 differ from the manifest");
  raise(missing, "bundle/missing-entry", absent, "Status ok in the manifest, absent from the bundle");
}

}  // namespace

void finalize_manifest(BundleFacts& facts) {
  choose_items(facts.manifest);
  check_against_inventory(facts);
}

}  // namespace triage
