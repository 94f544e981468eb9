#pragma once
// Which source kind an entry is, and why: the layout path of bundle-layout-v1 first, then
// the collector's manifest, then the content of the first bytes. The rules are tables
// (layout_rules.cpp, manifest_rules.cpp, sniff.cpp); docs/input.md describes the order.
#include <optional>
#include <string>
#include <string_view>

#include "model/facts_inventory.h"
#include "knowledge/line_shapes.h"
#include "model/source_kind.h"

namespace triage {

struct ManifestItem;

struct Classification {
  SourceKind kind = SourceKind::unknown;
  ClassifiedBy by = ClassifiedBy::none;
  std::string reason;  // why this kind, or why every sniff failed
};

// A layout rule that matched. kind == unknown: an area whose files the content decides
// (logs/, extra/, probes/logs/).
struct LayoutMatch {
  SourceKind kind;
  std::string_view pattern;
};
std::optional<LayoutMatch> match_layout(std::string_view bundle_path);

// Kind of a file by its path on the collected host (a manifest item's "source").
std::optional<SourceKind> kind_from_source_path(std::string_view host_path);
// Kind a manifest item implies (its exec argv, else its source path); `why` says which.
std::optional<SourceKind> kind_from_manifest_item(const ManifestItem& item, std::string* why);

// Content sniffing. Looks at most at kSniffBytes; `whole` = the head is the entire entry
// (otherwise its last, cut line is ignored).
constexpr size_t kSniffBytes = 64 * 1024;
struct SniffResult {
  SourceKind kind = SourceKind::unknown;
  std::string reason;
};
SniffResult sniff_content(std::string_view head, bool whole);
// The same with other line shapes than the built-in knowledge/line-shapes.tsv (tests, and a
// new shape tried before it is added); throws std::logic_error when a shape the rules name
// is missing or a pattern does not compile.
SniffResult sniff_content_with_shapes(const std::vector<LineShapeRow>& rows, std::string_view head, bool whole);

// The kind one line's shape suggests (unknown: no shape), for the segmenter of mixed
// pastes; allocates nothing. Key=value lines give proc_environ.
SourceKind line_shape_kind(std::string_view line);
// The kind a shell command's output has (`dmesg -T`, `npu-smi info -t health`,
// `cat /var/log/messages`), as a pasted prompt line shows it; nullopt when it says nothing.
std::optional<SourceKind> kind_from_command(std::string_view command);

// The whole decision for one entry. `item` is the manifest's item for this path, if any.
Classification classify_entry(std::string_view bundle_path, std::string_view head, bool whole,
                              const ManifestItem* item);

}  // namespace triage
