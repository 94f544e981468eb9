// driver-binding: whether the host driver can bind at all. NPU functions (vendor 19e5 with
// an NPU device id; Kunpeng on-board devices share the vendor id) without a driver, absent
// /dev/davinci* nodes, and module-load failures (Unknown symbol, symbol version, version
// magic, signature) in any boot's kernel log of any bundle of the host. Their words are data:
// knowledge/findings/modules.tsv.
#include "correlator/analyses/driver_binding.h"

#include <set>
#include <tuple>

#include <fmt/format.h>

#include "correlator/analyses/module_provenance.h"
#include "knowledge/knowledge.h"

namespace triage {

std::string_view npu_model(std::string_view vendor, std::string_view device, const KnowledgeBase& kb) {
  const PciIdInfo* p = kb.find_pci_id(vendor, device);
  return p ? std::string_view(p->model) : std::string_view{};
}

std::string_view npu_model(std::string_view vendor, std::string_view device) {
  return npu_model(vendor, device, knowledge_for(""));
}

namespace {

// "module verification failed: ... - tainting kernel" means the unsigned module was loaded
// anyway (signatures not enforced): a taint, not a failure. Out-of-tree taint likewise.
bool is_load_failure(const KernelEvent& e) {
  ModuleLoadProblem p = e.module_failure->problem;
  if (p == ModuleLoadProblem::out_of_tree_taint) return false;
  if (p == ModuleLoadProblem::verification_failed &&
      e.message.find("tainting kernel") != std::string::npos)
    return false;
  return true;
}

void unbound(const BundleFacts& b, const std::string& host, const KnowledgeBase& kb,
             const FindingTexts& texts, std::vector<Finding>& out) {
  // sysfs rows first; lspci rows for the same address only fill in the driver.
  std::vector<const PciFunction*> npus, unbound_fns;
  std::set<std::string> seen;
  for (int pass = 0; pass < 2; ++pass)
    for (const auto& p : b.modules.pci) {
      if (p.from_lspci != (pass == 1) || npu_model(p.vendor, p.device, kb).empty()) continue;
      if (!seen.insert(p.address).second) continue;
      npus.push_back(&p);
      if (p.driver.empty()) unbound_fns.push_back(&p);
    }
  const auto& nodes = b.modules.device_nodes;
  bool have_nodes = false;
  if (nodes)
    for (const auto& n : *nodes)
      if (n.path.rfind("/dev/davinci", 0) == 0 && n.path != "/dev/davinci_manager") have_nodes = true;
  const ManifestItem* dev_item = b.manifest.item("system/devices.txt");
  bool nodes_absent = (nodes && !have_nodes) ||
                      (!nodes && dev_item && dev_item->status == ItemStatus::absent);
  if (unbound_fns.empty() && !(nodes_absent && !npus.empty())) return;
  Finding f;
  f.id = "driver-binding/unbound";
  f.severity = unbound_fns.size() == npus.size() ? Severity::critical : Severity::error;
  f.confidence = Confidence::high;
  f.host = host;
  const PciFunction* first = unbound_fns.empty() ? npus.front() : unbound_fns.front();
  std::vector<std::string> expected;
  for (const auto& p : b.modules.pci)
    if (p.address == first->address)
      for (const auto& m : p.kernel_modules) expected.push_back(m);
  f.observed = fmt::format("{} {}:{} driver '{}'{}; device nodes: {}", first->address, first->vendor,
                           first->device, first->driver,
                           expected.empty() ? "" : fmt::format(" (lspci: Kernel modules: {})", fmt::join(expected, ", ")),
                           nodes_absent ? "absent" : nodes ? "present" : "not collected");
  render_finding_words(f, texts,
                       {{"unbound", std::to_string(unbound_fns.size())},
                        {"npu_functions", std::to_string(npus.size())},
                        {"model", std::string(npu_model(first->vendor, first->device, kb))}},
                       nodes_absent ? "nodes-absent" : "");
  for (auto* p : unbound_fns)
    if (f.evidence.size() < 8) f.evidence.push_back(p->evidence);
  if (nodes && !nodes->empty() && f.evidence.size() < 9) f.evidence.push_back(nodes->front().evidence);
  // With no driver bound, every process that tries to start a device fails (507033, device
  // setup error): those lines are this finding's consequence, not errors of their own.
  size_t setup_failures = 0;
  for (const auto& e : b.logs.error_codes)
    if (e.code == "507033") f.explains.push_back(EvidenceRef{e.evidence.entry, e.evidence.line, 0, {}}), ++setup_failures;
  if (setup_failures)
    f.observed += fmt::format(". {} device set-up failure(s) (507033) in the processes' logs follow from it", setup_failures);
  f.value("npu_functions", std::to_string(npus.size()))
      .value("unbound", std::to_string(unbound_fns.size()))
      .value("device_nodes", nodes_absent ? "absent" : nodes ? "present" : "unknown");
  out.push_back(std::move(f));
}

void load_failures(const HostGroup& group, const FindingTexts& texts, std::vector<Finding>& out) {
  // One finding per host over all bundles: the same journal line in two bundles counts once.
  std::set<std::tuple<std::string, int, std::string, std::string>> seen;
  std::set<std::string> modules, boots;
  std::vector<const KernelEvent*> events;
  bool critical = false;
  for (const BundleFacts* b : group.bundles)
    for (const auto& e : b->logs.kernel_events) {
      if (!e.module_failure || !is_load_failure(e)) continue;
      const auto& mf = *e.module_failure;
      auto key = std::make_tuple(e.boot_id, static_cast<int>(mf.problem), mf.module,
                                 mf.symbol + "|" + e.message);
      if (!seen.insert(key).second) continue;
      events.push_back(&e);
      if (!mf.module.empty()) modules.insert(mf.module);
      boots.insert(e.boot_id);
      if (mf.module == "drv_pcie_host" || mf.module == "drv_davinci_intf_host") critical = true;
    }
  if (events.empty()) return;
  const KernelEvent& first = *events.front();
  Finding f;
  f.id = "driver-binding/load-failure";
  f.severity = critical ? Severity::critical : Severity::error;
  f.confidence = Confidence::high;
  f.host = group.host;
  f.observed = fmt::format("{} (first of {}; modules: {})", first.message, events.size(),
                           fmt::join(modules, ", "));
  render_finding_words(f, texts,
                       {{"lines", std::to_string(events.size())}, {"modules", std::to_string(modules.size())}});
  for (auto* e : events)
    if (f.evidence.size() < 10) f.evidence.push_back(e->evidence);
    else f.explains.push_back(EvidenceRef{e->evidence.entry, e->evidence.line, 0, {}});
  f.value("lines", std::to_string(events.size()))
      .value("modules", fmt::format("{}", fmt::join(modules, ",")))
      .value("boots", std::to_string(boots.size()))
      .value("first_problem", std::string(to_string(first.module_failure->problem)));
  out.push_back(std::move(f));
}

}  // namespace

void analyze_driver_binding(const AnalysisContext& ctx, std::vector<Finding>& findings) {
  const EvidenceSet& evidence = ctx.evidence;
  const KnowledgeBase& kb = ctx.knowledge;
  for (const auto& group : evidence.groups()) {
    if (const BundleFacts* b = latest_module_bundle(group)) unbound(*b, group.host, kb, ctx.finding_texts, findings);
    load_failures(group, ctx.finding_texts, findings);
  }
}

}  // namespace triage
