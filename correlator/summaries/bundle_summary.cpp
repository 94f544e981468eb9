#include "correlator/summaries/bundle_summary.h"

#include "correlator/summaries/entry_mentions.h"
#include "correlator/summaries/facts_listing.h"

#include <algorithm>

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

// The versions a support engineer asks for first, one per component, from the first source
// that states it: version files, npu-smi, the collector's and the processes' packages.
static std::vector<VersionSeen> versions_of(const BundleFacts& f) {
  std::vector<VersionSeen> out;
  auto add = [&](std::string component, const std::string& version, const EvidenceRef& ev) {
    if (version.empty() || out.size() >= 32) return;
    for (const auto& v : out)
      if (v.component == component) return;
    out.push_back({std::move(component), version, ev});
  };
  auto file = [&](const std::optional<VersionFile>& v, const char* component, const char* key) {
    if (!v) return;
    if (const KeyValueLine* l = v->find(key)) add(component, l->value, l->evidence);
  };
  file(f.libraries.driver_version, "driver", "Version");
  file(f.libraries.firmware_version, "firmware", "Version");
  // By path, not by read order: the report must not depend on an archive's member order.
  std::vector<const VersionFile*> cann;
  for (const auto& c : f.libraries.cann_files) cann.push_back(&c);
  std::sort(cann.begin(), cann.end(), [](const VersionFile* a, const VersionFile* b) { return a->entry < b->entry; });
  for (const VersionFile* cp : cann) {
    const VersionFile& c = *cp;
    const KeyValueLine* l = c.find("version");
    if (!l) l = c.find("Version");
    if (l) add(c.component.empty() ? "CANN" : "CANN " + c.component, l->value, l->evidence);
  }
  for (const auto* info : {&f.devices.info, &f.devices.map_failure})
    if (*info) {
      add("npu-smi", (*info)->version, (*info)->evidence);
      // The header's `Version:` is the driver's; named only where it differs (a patch, `.sph001`).
      if ((*info)->driver_version != (*info)->version) add("driver", (*info)->driver_version, (*info)->evidence);
    }
  // The stacks customers run on Ascend (issue 36): their versions are what a reply asks first.
  static constexpr std::string_view kPackages[] = {"torch",        "torch-npu", "mindspore",   "vllm",
                                                   "vllm-ascend",  "deepspeed", "mindspeed",   "transformers",
                                                   "accelerate",   "lmdeploy",  "llamafactory", "sglang",
                                                   "ms-swift",     "verl",      "mindformers"};
  auto packages = [&](const std::vector<PackageRow>& rows) {
    for (auto name : kPackages)
      for (const auto& p : rows)
        if (p.normalized == name) add(std::string(name), p.version, p.evidence);
  };
  packages(f.libraries.default_packages);
  packages(f.libraries.default_pip);
  for (const auto& [pid, lib] : f.libraries.by_pid) {
    packages(lib.packages);
    packages(lib.pip);
    add("torch-npu", lib.torch_npu_version, lib.torch_npu_version_evidence);
  }
  return out;
}

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
  s.versions = versions_of(facts);
  s.mentions = entry_mentions(facts, FactScope::report);
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
  for (const auto& p : facts.logs.plog_entries) {
    auto& c = s.counted_only;
    c.folded_lines += p.folded_lines;
    c.folded_templates += p.folded_templates;
    c.folded_entries += p.folded_lines ? 1 : 0;
    c.level_lines_over_cap += p.level_lines_over_cap;
    c.level_entries_over_cap += p.level_lines_over_cap ? 1 : 0;
  }
  for (const auto& k : facts.logs.kernel_entries) {
    auto& c = s.counted_only;
    c.folded_lines += k.folded_lines;
    c.folded_templates += k.folded_templates;
    c.folded_entries += k.folded_lines ? 1 : 0;
  }
  s.notes = m.notes;
  s.notes.insert(s.notes.end(), sys.notes.begin(), sys.notes.end());
  return s;
}

}  // namespace triage
