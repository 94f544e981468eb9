#include "model/bundle_summary.h"

#include <fmt/format.h>

namespace triage {

std::string status_counts_text(const BundleSummary& s) {
  std::string out;
  for (auto st : {ItemStatus::ok, ItemStatus::absent, ItemStatus::denied, ItemStatus::skipped,
                  ItemStatus::failed, ItemStatus::timed_out, ItemStatus::abandoned, ItemStatus::other}) {
    if (s.count(st) == 0) continue;
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", s.count(st), to_string(st));
  }
  return out;
}

}  // namespace triage
