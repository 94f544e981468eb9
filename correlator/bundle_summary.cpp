#include "correlator/bundle_summary.h"

#include <fmt/format.h>

namespace triage {
namespace {

ItemOutcome outcome_of(const ManifestItem& i) {
  return ItemOutcome{i.path, i.status,      i.status_text, i.reason,   i.error,
                     i.rc,   i.duration_ms, i.truncated,   i.kept_ranges, {}};
}

// Items written by one collector step: the same command started at the same time (a probe's
// .json, .stdout, .stderr, .status, .threads.txt), with the same outcome. File copies
// (no command) are steps of their own.
bool same_step(const ManifestItem& a, const ManifestItem& b) {
  return a.exec && b.exec && *a.exec == *b.exec && a.started_utc_us && a.started_utc_us == b.started_utc_us &&
         a.status == b.status && a.status_text == b.status_text && a.reason == b.reason && a.error == b.error &&
         a.rc == b.rc;
}

// One outcome per step, in manifest order. A step's items are adjacent (the collector records
// them as the step ends), so only the previous step is compared: linear on any manifest.
std::vector<ItemOutcome> not_collected_steps(const std::vector<ManifestItem>& items) {
  std::vector<ItemOutcome> steps;
  const ManifestItem* step_first = nullptr;
  for (const auto& item : items) {
    if (item.status == ItemStatus::ok) continue;
    if (!step_first || !same_step(*step_first, item)) {
      step_first = &item;
      steps.push_back(outcome_of(item));
    } else if (item.duration_ms && (!steps.back().duration_ms || *steps.back().duration_ms < *item.duration_ms)) {
      steps.back().duration_ms = item.duration_ms;
    }
    steps.back().files.push_back(item.path);
  }
  return steps;
}

std::string os_name(const SystemFacts& sys) {
  if (const std::string* pretty = sys.os_release_value("PRETTY_NAME")) return *pretty;
  const std::string* name = sys.os_release_value("NAME");
  const std::string* version = sys.os_release_value("VERSION_ID");
  if (name && version) return *name + " " + *version;
  return name ? *name : std::string();
}

}  // namespace

BundleSummary summarize_bundle(const BundleFacts& facts) {
  BundleSummary s;
  const SystemFacts& sys = facts.system;
  const ManifestFacts& m = facts.manifest;
  s.input = facts.input;
  s.host = facts.host;
  s.host_origin = sys.hostname_origin;
  s.os = os_name(sys);
  s.kernel_release = sys.kernel_release;
  s.boot_id = sys.boot_id;
  s.btime = sys.btime;
  s.collected_at_us = sys.collected_at_us;
  s.collected_at_origin = sys.collected_at_origin;
  if (sys.host_zone) {
    s.zone = sys.host_zone->description();
    s.zone_origin = sys.host_zone_origin;
    if (s.collected_at_us) s.local_offset = sys.host_zone->offset_at_utc(*s.collected_at_us);
  }
  s.has_manifest = m.has_manifest_json || m.has_items_jsonl;
  s.collector_version = m.collector_version;
  s.collector_args = m.args;
  s.format_version = m.format_version;
  s.uid = m.uid;
  s.sudo_user = m.sudo_user;
  s.in_container = m.in_container;
  s.items_origin = m.items_origin;
  s.items = m.items.size();
  for (const auto& item : m.items) {
    ++s.status_counts[static_cast<size_t>(item.status)];
    if (item.truncated) {
      ++s.truncated_count;
      s.truncated.push_back(outcome_of(item));
    }
  }
  s.not_collected = not_collected_steps(m.items);
  for (const auto& e : facts.inventory.entries)
    if (!e.stats.not_collected.empty())
      s.tool_errors.push_back(ToolErrorEntry{e.info.path, e.stats.not_collected});
  s.notes = m.notes;
  s.notes.insert(s.notes.end(), sys.notes.begin(), sys.notes.end());
  return s;
}

}  // namespace triage
