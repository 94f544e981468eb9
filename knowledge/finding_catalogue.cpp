#include "knowledge/finding_catalogue.h"

#include <map>
#include <memory>
#include <mutex>

#include "knowledge/finding_texts.h"

namespace triage {

const std::vector<CatalogueEntry>& finding_catalogue_for(const std::string& dir) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<std::vector<CatalogueEntry>>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& rows = cache[dir];
  if (!rows) {
    rows = std::make_unique<std::vector<CatalogueEntry>>();
    for (const auto& t : finding_texts_for(dir).entries)
      if (!t.variant()) rows->push_back({t.id, t.severity, t.meaning, t.does_not_prove, t.how_to_settle});
  }
  return *rows;
}

const CatalogueEntry* find_catalogue_entry(const std::vector<CatalogueEntry>& c, std::string_view id) {
  for (const auto& e : c)
    if (e.id == id) return &e;
  return nullptr;
}

}  // namespace triage
