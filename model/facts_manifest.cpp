#include "model/facts_manifest.h"

#include <array>

namespace triage {
namespace {
constexpr std::array<std::pair<ItemStatus, std::string_view>, 7> kStatuses = {{
    {ItemStatus::ok, "ok"},
    {ItemStatus::absent, "absent"},
    {ItemStatus::denied, "denied"},
    {ItemStatus::skipped, "skipped"},
    {ItemStatus::failed, "failed"},
    {ItemStatus::timed_out, "timed_out"},
    {ItemStatus::abandoned, "abandoned"},
}};
}  // namespace

std::string_view to_string(ItemStatus s) {
  for (const auto& [v, name] : kStatuses)
    if (v == s) return name;
  return "other";
}

ItemStatus parse_item_status(std::string_view s) {
  for (const auto& [v, name] : kStatuses)
    if (name == s) return v;
  return ItemStatus::other;
}

}  // namespace triage
