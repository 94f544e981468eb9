// device-access: the device is not reachable from the process or from where the collector
// ran. Four views: the bundle shows no NPU at all or none visible (manifest npu_presence, else
// derived from the same files), a container given /dev/davinciN without the manager, memory
// and HDC nodes, lines in which the process itself says it cannot reach a device (driver 87,
// HDC init, visible-device list), and npu-smi failing with a DCMI result.
#include "correlator/analyses/device_access.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

#include "knowledge/knowledge.h"

namespace triage {
namespace {

constexpr std::array<std::string_view, 6> kNpuPciDevices = {"d100", "d500", "d801", "d802", "d803", "d806"};
constexpr std::array<std::string_view, 3> kSupportNodes = {"/dev/davinci_manager", "/dev/devmm_svm",
                                                          "/dev/hisi_hdc"};

bool is_davinci_n(std::string_view path) {
  constexpr std::string_view p = "/dev/davinci";
  return path.size() > p.size() && path.substr(0, p.size()) == p && path[p.size()] >= '0' && path[p.size()] <= '9';
}

// The collector's npu_presence, or the same decision from the bundle's own files when the
// manifest has none (an older collector); nullopt when what decides was not collected.
std::optional<NpuPresence> presence(const BundleFacts& b) {
  if (b.manifest.npu_presence && !b.manifest.npu_presence->state.empty()) return b.manifest.npu_presence;
  if (!b.manifest.has_manifest_json && !b.manifest.has_items_jsonl) return std::nullopt;  // loose files
  const auto& m = b.modules;
  if (!m.have_pci_tsv || !m.device_nodes || !m.have_sysfs) return std::nullopt;
  NpuPresence p;
  p.npu_pci_devices = std::count_if(m.pci.begin(), m.pci.end(), [](const PciFunction& f) {
    return f.vendor == "19e5" &&
           std::find(kNpuPciDevices.begin(), kNpuPciDevices.end(), f.device) != kNpuPciDevices.end();
  });
  p.device_nodes = std::count_if(m.device_nodes->begin(), m.device_nodes->end(),
                                 [](const DeviceNode& n) { return is_davinci_n(n.path); });
  p.ascend_modules_loaded = static_cast<int64_t>(m.loaded.size());
  p.driver_installed = b.libraries.driver_version.has_value();
  p.npu_processes = static_cast<int64_t>(b.processes.by_pid.size());
  if (*p.device_nodes > 0 || *p.npu_processes > 0) p.state = "npu_visible";
  else if (*p.ascend_modules_loaded > 0 || *p.driver_installed || *p.npu_pci_devices > 0)
    p.state = "devices_not_visible";
  else p.state = "no_npu";
  return p;
}

std::string count(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "not collected"; }

void no_npu(const BundleFacts& b, const FindingTexts& texts, std::vector<Finding>& out) {
  auto p = presence(b);
  if (!p || (p->state != "no_npu" && p->state != "devices_not_visible")) return;
  bool none = p->state == "no_npu";
  Finding f;
  f.id = "device-access/no-npu";
  if (!none) f.id = "device-access/devices-not-visible";
  f.host = b.host;
  // First in the report: nothing else in a bundle without an NPU can be read as a device fault.
  f.severity = none ? Severity::critical : Severity::error;
  f.confidence = Confidence::high;
  f.observed = fmt::format(
      "{}: state {}; Ascend modules loaded {}, driver installed {}, /dev/davinci* nodes {}, NPU PCI "
      "devices {}, NPU processes {}{}.",
      b.manifest.npu_presence ? "manifest.json npu_presence" : "derived from the bundle's files",
      p->state, count(p->ascend_modules_loaded),
      p->driver_installed ? (*p->driver_installed ? "yes" : "no") : "not collected", count(p->device_nodes),
      count(p->npu_pci_devices), count(p->npu_processes),
      b.manifest.in_container == true ? "; the collector ran in a container" : "");
  render_finding_words(f, texts);
  f.evidence.push_back(b.manifest.npu_presence ? b.manifest.evidence
                                               : EvidenceRef{"system/devices.txt", 0, 0, ""});
  f.value("state", p->state);
  if (b.manifest.in_container) f.value("in_container", *b.manifest.in_container ? "yes" : "no");
  out.push_back(std::move(f));
}

void container_nodes(const BundleFacts& b, const FindingTexts& texts, std::vector<Finding>& out) {
  const auto& nodes = b.modules.device_nodes;
  if (!nodes) return;
  std::vector<const DeviceNode*> davinci;
  std::set<std::string> present;
  for (const auto& n : *nodes) {
    present.insert(n.path);
    if (is_davinci_n(n.path)) davinci.push_back(&n);
  }
  if (davinci.empty()) return;  // no device at all: device-access/no-npu or driver-binding
  std::vector<std::string> missing;
  for (auto s : kSupportNodes)
    if (!present.count(std::string(s))) missing.emplace_back(s);
  if (missing.empty()) return;
  Finding f;
  f.id = "device-access/support-nodes-missing";
  f.host = b.host;
  f.severity = Severity::error;
  f.confidence = Confidence::high;
  f.observed = fmt::format("system/devices.txt lists {} but not {}{}.", davinci.front()->path,
                           fmt::join(missing, ", "),
                           b.manifest.in_container == true ? " (collected inside a container)" : "");
  render_finding_words(f, texts, {{"davinci_nodes", std::to_string(davinci.size())},
                                {"missing", fmt::format("{}", fmt::join(missing, ", "))}});
  f.evidence.push_back(davinci.front()->evidence);
  for (const auto& m : missing) f.value("missing", m);
  out.push_back(std::move(f));
}

// Signature ids (knowledge/signatures/*.json) that say the process cannot reach a device.
// The signatures that feed this finding say so in their `outcome` (knowledge/signatures/
// device-access.json); driver/device-not-visible has a finding of its own and is read here too.
bool access_signature(const KnowledgeBase& kb, std::string_view id) {
  if (id == "driver/device-not-visible") return true;
  for (const auto& s : kb.signatures)
    if (s.id == id) return s.outcome == "device-access/process-cannot-open";
  return false;
}

void process_cannot_open(const BundleFacts& b, const KnowledgeBase& kb, const FindingTexts& texts,
                         std::vector<Finding>& out) {
  std::vector<EvidenceRef> ev;
  std::set<std::string> ids;
  std::vector<std::pair<std::string, std::string>> values;
  auto take = [&](const std::string& id, const EvidenceRef& e) {
    ids.insert(id);
    if (ev.size() < 8) ev.push_back(e);
  };
  for (const auto& h : b.logs.signature_hits) {
    if (!access_signature(kb, h.id)) continue;
    take(h.id, h.evidence);
    for (const auto& [k, v] : h.captures)
      if ((k == "visible" || k == "device_id") && values.size() < 8) values.emplace_back(k, v);
  }
  // CANN error reports printed in job output carry the same text in their frames.
  std::vector<int> scratch, hits;
  for (const auto& r : b.python.error_reports) {
    auto scan = [&](std::string_view text) {
      if (!kb.plog_matcher.any(text)) return;
      kb.plog_matcher.match(text, {}, scratch, hits);
      for (int i : hits)
        if (const auto& s = kb.signatures[static_cast<size_t>(i)]; access_signature(kb, s.id))
          take(s.id, r.evidence_header.entry.empty() ? r.evidence : r.evidence_header);
    };
    scan(r.message);
    for (const auto& d : r.details) scan(d);
    for (const auto& fr : r.frames) scan(fr.text);
  }
  if (ids.empty()) return;
  Finding f;
  f.id = "device-access/process-cannot-open";
  f.host = b.host;
  f.severity = Severity::error;
  f.confidence = ev.size() > 1 ? Confidence::high : Confidence::medium;
  f.observed = fmt::format("{} line(s): {}.", ev.size(), fmt::join(ids, ", "));
  for (const auto& [k, v] : values) f.observed += fmt::format(" {}={}.", k, v);
  render_finding_words(f, texts);
  // What the matched signatures advise comes first: it names the check for that very line
  // (the driver library's directory rights, the visible-device list, ...).
  std::vector<std::string> advice;
  for (const auto& s : kb.signatures)
    if (ids.count(s.id))
      for (const auto& step : s.next_steps)
        if (std::find(advice.begin(), advice.end(), step) == advice.end()) advice.push_back(step);
  f.next_checks.insert(f.next_checks.begin(), advice.begin(), advice.end());
  f.evidence = ev;
  for (const auto& id : ids) f.value("signature", id);
  for (auto& [k, v] : values) f.value(k, v);
  out.push_back(std::move(f));
}

void dcmi_failure(const BundleFacts& b, const KnowledgeBase& kb, const FindingTexts& texts,
                  std::vector<Finding>& out) {
  const NpuSmiInfo* i = b.devices.info && b.devices.info->failure_code ? &*b.devices.info
                        : b.devices.map_failure && b.devices.map_failure->failure_code ? &*b.devices.map_failure
                                                                                       : nullptr;
  if (!i) return;
  std::string code = std::to_string(*i->failure_code);
  const ErrorCodeInfo* info = kb.find_code(code);
  Finding f;
  f.id = "device-access/dcmi-failure";
  f.host = b.host;
  f.severity = Severity::error;
  f.confidence = Confidence::medium;
  f.observed = fmt::format("npu-smi printed \"{}\"{}{}.", i->failure, info ? " — " + info->meaning : "",
                           b.manifest.in_container == true ? "; the collector ran in a container" : "");
  // -8020: the device manager is held by another process, not unreachable.
  render_finding_words(f, texts, {{"dcmi_code", code}}, code == "-8020" ? "occupied" : "");
  f.evidence.push_back(i->evidence);
  f.value("dcmi_code", code);
  f.value("in_container", !b.manifest.in_container ? "unknown" : *b.manifest.in_container ? "yes" : "no");
  out.push_back(std::move(f));
}

}  // namespace

void analyze_device_access(const AnalysisContext& ctx, std::vector<Finding>& out) {
  const EvidenceSet& evidence = ctx.evidence;
  const KnowledgeBase& kb = ctx.knowledge;
  for (const auto& b : evidence.bundles) {
    no_npu(b, ctx.finding_texts, out);
    container_nodes(b, ctx.finding_texts, out);
    process_cannot_open(b, kb, ctx.finding_texts, out);
    dcmi_failure(b, kb, ctx.finding_texts, out);
  }
}

}  // namespace triage
