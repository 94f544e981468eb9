// chip-scope: products come from knowledge/pci-ids.tsv (its `model` column is the product
// vocabulary); an npu-smi chip name ("910B3", "Ascend910", "310P3") names the product whose
// model is its longest prefix once "Ascend" is dropped. npu-smi prints "Ascend910" on 910_93
// (A3) hosts too, so a PCI id, when present, decides.
#include "correlator/analyses/chip_scope.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "knowledge/knowledge.h"

namespace triage {
namespace {

std::string product_of_name(const KnowledgeBase& kb, std::string_view name) {
  if (name.starts_with("Ascend")) name.remove_prefix(6);
  std::string best;
  size_t best_len = 0;
  for (const auto& p : kb.pci_ids) {
    std::string_view model = p.model;
    model = model.substr(0, model.find(' '));  // "910_93 (A3)" -> "910_93"
    if (!model.empty() && name.starts_with(model) && model.size() > best_len) {
      best = p.model;
      best_len = model.size();
    }
  }
  return best;
}

}  // namespace

void analyze_chip_scope(const AnalysisContext& ctx, std::vector<Finding>& out) {
  const KnowledgeBase& kb = ctx.knowledge;
  for (const auto& b : ctx.evidence.bundles) {
    std::map<std::string, std::vector<std::string>> from;  // product -> how it was seen
    std::vector<EvidenceRef> ev;
    bool from_pci = false;
    for (const auto& f : b.modules.pci) {
      const PciIdInfo* id = kb.find_pci_id(f.vendor, f.device);
      if (!id) continue;
      from_pci = true;
      auto& how = from[id->model];
      std::string s = fmt::format("PCI {}:{}", f.vendor, f.device);
      if (std::find(how.begin(), how.end(), s) == how.end()) {
        how.push_back(s);
        if (ev.size() < 4) ev.push_back(f.evidence);
      }
    }
    if (b.devices.info)
      for (const auto& c : b.devices.info->chips) {
        std::string p = product_of_name(kb, c.name);
        if (p.empty()) continue;
        // "Ascend910" is printed on 910 and 910_93 hosts: a PCI id decides.
        if (from_pci && c.name == "Ascend910") continue;
        auto& how = from[p];
        std::string s = fmt::format("npu-smi {}", c.name);
        if (std::find(how.begin(), how.end(), s) == how.end()) {
          how.push_back(s);
          if (ev.size() < 6) ev.push_back(c.evidence);
        }
      }
    if (from.empty()) continue;
    std::vector<std::string> products, seen;
    for (const auto& [p, how] : from) {
      products.push_back(p);
      seen.push_back(fmt::format("{} ({})", p, fmt::join(how, ", ")));
    }
    Finding f;
    f.host = b.host;
    f.evidence = ev;
    if (products.size() == 1) f.id = "chip-scope/product";
    else f.id = "chip-scope/mixed";
    f.severity = products.size() == 1 ? Severity::info : Severity::warning;
    f.confidence = from_pci ? Confidence::high : Confidence::medium;
    f.observed = fmt::format("Seen as {}.", fmt::join(seen, "; "));
    render_finding_words(f, ctx.finding_texts, {{"products", fmt::format("{}", fmt::join(products, " and "))}});
    f.value("products", fmt::format("{}", fmt::join(products, ",")));
    out.push_back(std::move(f));
  }
}

}  // namespace triage
