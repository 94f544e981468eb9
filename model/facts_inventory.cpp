#include "model/facts_inventory.h"

#include <fmt/format.h>

namespace triage {

std::string_view to_string(ClassifiedBy c) {
  switch (c) {
    case ClassifiedBy::layout_path: return "layout path";
    case ClassifiedBy::manifest: return "manifest";
    case ClassifiedBy::content_sniff: return "content sniff";
    case ClassifiedBy::file_type: return "file type";
    case ClassifiedBy::none: return "none";
  }
  return "none";
}

uint64_t InventoryFacts::folded_count() const {
  uint64_t n = 0;
  for (const auto& f : folded) n += f.entries;
  return n;
}

std::string entries_text(const InventoryFacts& inv) {
  uint64_t read = inv.entries.size(), unknown = 0, folded = 0, skipped = 0;
  for (const auto& e : inv.entries) unknown += e.kind == SourceKind::unknown;
  for (const auto& f : inv.folded) {
    if (!f.skipped.empty()) {
      skipped += f.entries;
      continue;
    }
    read += f.entries;
    folded += f.entries;
    if (f.kind == SourceKind::unknown) unknown += f.entries;
  }
  std::string text = fmt::format("{} read, {} not recognised", read, unknown);
  if (folded + skipped > 0)
    text += fmt::format("; past --max-listed-entries {}, {} entries that added no fact{} are counted "
                        "by kind, not listed",
                        inv.listed_cap, folded + skipped,
                        skipped ? fmt::format(" ({} of them skipped members)", skipped) : "");
  return text;
}

}  // namespace triage
