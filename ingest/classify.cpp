#include "ingest/classify.h"

#include <fmt/format.h>

#include "ingest/export_paths.h"
#include "ingest/manifest_index.h"
#include "ingest/segment.h"

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
  if (auto exported = classify_export_path(bundle_path, head)) {
    exported->reason = area + exported->reason;
    return *exported;
  }
  SniffResult sniff = sniff_content(head, whole);
  // A paste of several kinds (prompts, job output, a dmesg section, a table) is split later.
  if (auto mixed = mixed_text_reason(head, whole, sniff.kind))
    return {SourceKind::mixed_text, ClassifiedBy::content_sniff, area + *mixed};
  if (sniff.kind != SourceKind::unknown)
    return {sniff.kind, ClassifiedBy::content_sniff, area + sniff.reason};
  return {SourceKind::unknown, ClassifiedBy::none, area + sniff.reason};
}

}  // namespace triage
