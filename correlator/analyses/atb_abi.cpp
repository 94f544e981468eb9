#include "correlator/analyses/atb_abi.h"

#include <fmt/format.h>

#include <optional>
#include <string_view>

#include "knowledge/version_tables.h"
#include "model/pep440.h"

namespace triage {
namespace {

// The ABI of an ATB tree named in a path: ".../atb/latest/atb/cxx_abi_1" or ".../cxx_abi_0/lib".
std::optional<int> abi_of_atb_path(std::string_view path) {
  size_t at = path.find("/cxx_abi_");
  if (at == std::string_view::npos || path.find("atb") == std::string_view::npos) return std::nullopt;
  std::string_view rest = path.substr(at + 9);
  if (rest.empty() || (rest[0] != '0' && rest[0] != '1') || (rest.size() > 1 && rest[1] != '/'))
    return std::nullopt;
  return rest[0] - '0';
}

struct AtbTree {
  int abi = 0;
  std::string variable, path;
  EvidenceRef evidence;
};

// ATB_HOME_PATH first; else the first LD_LIBRARY_PATH entry inside an ATB ABI tree.
template <class Lookup>
std::optional<AtbTree> atb_tree(Lookup&& env, const EvidenceRef& evidence_of_all) {
  if (auto [v, ev] = env("ATB_HOME_PATH"); v)
    if (auto abi = abi_of_atb_path(*v)) return AtbTree{*abi, "ATB_HOME_PATH", *v, ev ? *ev : evidence_of_all};
  if (auto [v, ev] = env("LD_LIBRARY_PATH"); v) {
    std::string_view rest = *v;
    while (!rest.empty()) {
      size_t colon = rest.find(':');
      std::string_view entry = rest.substr(0, colon);
      if (entry.find("/atb/") != std::string_view::npos)
        if (auto abi = abi_of_atb_path(entry))
          return AtbTree{*abi, "LD_LIBRARY_PATH", std::string(entry), ev ? *ev : evidence_of_all};
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  return std::nullopt;
}

const PackageRow* torch_row(const std::vector<PackageRow>& rows) {
  for (const auto& r : rows)
    if (r.normalized == "torch") return &r;
  return nullptr;
}

void judge(const BundleFacts& b, const VersionTables& tables, const FindingTexts& texts, const AtbTree& atb,
           const PackageRow& torch, std::string_view who, std::vector<Finding>& out) {
  const TorchAbiRow* row = torch_abi_row(tables, torch.version);
  if (!row || row->cxx11_abi == atb.abi) return;
  Finding f;
  f.id = "environment/atb-abi-mismatch";
  f.severity = Severity::warning;
  // The torch ABI is the published wheels'; a torch built elsewhere may use the other one.
  f.confidence = Confidence::medium;
  f.host = b.host;
  f.observed = fmt::format("{}={}; torch {} ({}: _GLIBCXX_USE_CXX11_ABI={})", atb.variable, atb.path, torch.version,
                           row->source, row->cxx11_abi);
  render_finding_words(f, texts,
                       {{"who", std::string(who)},
                        {"variable", std::string(atb.variable)},
                        {"atb_abi", std::to_string(atb.abi)},
                        {"torch", torch.version},
                        {"torch_abi_name", row->cxx11_abi ? "C++11 (cxx_abi_1)" : "pre-C++11 (cxx_abi_0)"},
                        {"torch_abi", std::to_string(row->cxx11_abi)}});
  for (const EvidenceRef* ev : {&atb.evidence, &torch.evidence})
    if (!ev->entry.empty()) f.evidence.push_back(*ev);  // a process without a read environ has none
  f.value("atb_abi", std::to_string(atb.abi)).value("torch", torch.version)
      .value("torch_abi", std::to_string(row->cxx11_abi));
  out.push_back(std::move(f));
}

}  // namespace

void analyze_atb_abi(const AnalysisContext& ctx, std::vector<Finding>& out) {
  const EvidenceSet& evidence = ctx.evidence;
  const VersionTables& tables = ctx.version_tables;
  using Found = std::pair<const std::string*, const EvidenceRef*>;
  for (const auto& b : evidence.bundles) {
    const LibraryFacts& lf = b.libraries;
    const PackageRow* default_torch = torch_row(lf.default_pip);
    if (!default_torch) default_torch = torch_row(lf.default_packages);
    // A pasted report: its ENV Variables and its pip lines.
    auto reported = [&](std::string_view name) -> Found {
      for (const auto& l : lf.reported_env)
        if (l.key == name) return {&l.value, &l.evidence};
      return {nullptr, nullptr};
    };
    if (default_torch)
      if (auto atb = atb_tree(reported, EvidenceRef{}))
        judge(b, tables, ctx.finding_texts, *atb, *default_torch, "the reported environment", out);
    // Collected processes: their environ and the torch their own pip or packages list.
    for (const auto& [pid, process] : b.processes.by_pid) {
      const auto& proc = process;  // a lambda may not capture a structured binding (clang 14)
      if (!proc.has_environ) continue;
      auto env = [&proc](std::string_view name) -> Found { return {proc.env(name), nullptr}; };
      EvidenceRef ev = proc.evidence.empty() ? EvidenceRef{} : proc.evidence.front();
      auto atb = atb_tree(env, ev);
      if (!atb) continue;
      const PackageRow* torch = nullptr;
      if (auto it = lf.by_pid.find(pid); it != lf.by_pid.end()) {
        torch = torch_row(it->second.pip);
        if (!torch) torch = torch_row(it->second.packages);
      }
      if (!torch) torch = default_torch;
      if (torch) judge(b, tables, ctx.finding_texts, *atb, *torch, fmt::format("pid {}", pid), out);
    }
  }
}

}  // namespace triage
