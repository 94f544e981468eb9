#include "compare/chain_judge.h"

#include <set>

#include "correlator/analyses/version_matrix.h"

namespace triage {
namespace {

const ChainVersion* find(const Chain& c, std::string_view component) {
  for (const auto& v : c.versions)
    if (v.component == component) return &v;
  return nullptr;
}

std::string cann_item(const ChainVersion& v) { return "CANN " + v.component.substr(5) + " " + v.dir; }

// The CANN version a wheel scope runs with: the install its process maps, else the host's one
// CANN (when it has exactly one version).
std::string cann_for_scope(const Chain& c, const std::string& scope) {
  for (const auto& p : c.processes)
    if (scope == "process " + p.key)
      for (const auto& l : p.libraries)
        for (const auto& v : c.versions)
          if (v.component.starts_with("cann:") && !l.version_dir.empty() &&
              (v.dir == l.version_dir || v.dir.ends_with("-> " + l.version_dir) ||
               v.dir.starts_with(l.version_dir + " ->")))
            return v.version;
  std::set<std::string> versions;
  for (const auto& v : c.versions)
    if (v.component.starts_with("cann:") && !v.version.empty()) versions.insert(v.version);
  return versions.size() == 1 ? *versions.begin() : "";
}

}  // namespace

std::vector<IncompatiblePair> incompatible_pairs(const Chain& c, const VersionTables& tables) {
  std::vector<IncompatiblePair> out;
  const ChainVersion* drv = find(c, "driver");
  const ChainVersion* fw = find(c, "firmware");
  if (drv && fw) {
    Judgement j = judge_driver_firmware(drv->version, fw->version, drv->compatible_fw, fw->compatible);
    if (j.verdict == Compatibility::incompatible) out.push_back({{"driver", "firmware"}, "version tables: " + j.reason});
  }
  if (drv)
    for (const auto& v : c.versions) {
      if (!v.component.starts_with("cann:") || v.component == "cann:ops") continue;
      Judgement j = judge_cann_driver(tables, v.version, drv->version, drv->compatible, v.inner_version);
      if (j.verdict == Compatibility::incompatible)
        out.push_back({{"driver", cann_item(v)}, "version tables: " + j.reason});
    }
  std::set<std::string> scopes;
  for (const auto& w : c.wheels) scopes.insert(w.scope);
  for (const auto& scope : scopes) {
    std::string npu, torch;
    for (const auto& w : c.wheels)
      if (w.scope == scope) {
        if (w.name == "torch-npu") npu = w.version;
        if (w.name == "torch") torch = w.version;
      }
    std::string cann = cann_for_scope(c, scope);
    if (npu.empty() || cann.empty()) continue;
    Judgement j = judge_wheel(tables, npu, torch, cann);
    if (j.verdict == Compatibility::incompatible)
      out.push_back({{"wheel torch-npu (" + scope + ")", "wheel torch (" + scope + ")"}, "version tables: " + j.reason});
  }
  return out;
}

}  // namespace triage
