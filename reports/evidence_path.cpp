// Evidence paths relative to their bundle: one lookup table per report (the inventory names
// every entry by its display form and by its path inside the bundle).
#include "reports/evidence_path.h"

#include <fmt/format.h>

namespace triage {
namespace {

std::string_view file_name(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// How `entry` continues after its input's name: 1 for "<input>/..." or "<input>!...", 0 for
// a directory given with its slash ("dir/" + "logs/..."), npos when it is not under `input`.
size_t separator(std::string_view entry, std::string_view input) {
  if (input.empty() || entry.size() <= input.size() || entry.substr(0, input.size()) != input)
    return std::string_view::npos;
  if (input.back() == '/') return 0;
  char c = entry[input.size()];
  return c == '/' || c == '!' ? 1 : std::string_view::npos;
}

}  // namespace

EvidencePaths::EvidencePaths(const EvidenceSet& set) : set_(set) {
  for (const BundleFacts& b : set.bundles)
    for (const InventoryEntry& e : b.inventory.entries) path_of_.emplace(e.info.display, e.info.path);
}

std::string EvidencePaths::relative(std::string_view entry) const {
  std::string_view copy;  // a member stored again keeps its "(copy N)": its lines are not the first copy's
  if (size_t at = entry.rfind(" (copy "); at != std::string_view::npos && entry.back() == ')') copy = entry.substr(at);
  for (const BundleFacts& b : set_.bundles) {
    size_t sep = separator(entry, b.input);
    if (entry != b.input && sep == std::string_view::npos) continue;
    std::string path;
    if (auto it = path_of_.find(entry); it != path_of_.end()) path = std::string(it->second) + std::string(copy);
    else if (entry == b.input) path = std::string(file_name(entry));
    else path = std::string(entry.substr(b.input.size() + sep));
    if (set_.bundles.size() < 2 || entry == b.input) return path;
    char lead = sep == 1 && entry[b.input.size()] == '!' ? '!' : '/';
    return fmt::format("{}{}{}", file_name(b.input), lead, path);
  }
  return std::string(entry);  // in no input (a report built in memory): as it is
}

std::string EvidencePaths::where(const EvidenceRef& e) const {
  std::string path = relative(e.entry);
  return e.line ? fmt::format("{}:{}", path, e.line) : path;
}

}  // namespace triage
