#include "ingest/classify.h"

#include <fmt/format.h>

#include "ingest/manifest_index.h"

namespace triage {

Classification classify_entry(std::string_view bundle_path, std::string_view head, bool whole,
                              const ManifestItem* item) {
  std::string area;
  if (auto layout = match_layout(bundle_path)) {
    if (layout->kind != SourceKind::unknown)
      return {layout->kind, ClassifiedBy::layout_path, std::string(layout->pattern)};
    area = fmt::format("in {}: ", layout->pattern);
  }
  if (item) {
    std::string why;
    if (auto k = kind_from_manifest_item(*item, &why)) return {*k, ClassifiedBy::manifest, area + why};
  }
  SniffResult sniff = sniff_content(head, whole);
  if (sniff.kind != SourceKind::unknown)
    return {sniff.kind, ClassifiedBy::content_sniff, area + sniff.reason};
  return {SourceKind::unknown, ClassifiedBy::none, area + sniff.reason};
}

}  // namespace triage
