// version-matrix: first which versions are really in use, each with where it was read —
// CANN: the maps > ASCEND_HOME_PATH / ASCEND_TOOLKIT_HOME > the install records;
// torch_npu / torch: packages.tsv beside the mapped libtorch_npu.so > the process's pip
// (pip-list.json, pip show) > the rest of its packages.tsv > its torch_npu/version.py > the
// default pip (python/pip-list.json) > python/packages.tsv — then the pairs by declaration.
// Processes with the same combination share one finding.
#include "correlator/analyses/version_matrix.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <tuple>

#include "correlator/analyses/library_provenance.h"
#include "model/pep440.h"

namespace triage {
namespace {

struct Sourced {
  std::string value, source;
  EvidenceRef evidence;
};

struct InUse {
  Sourced cann, torch_npu, torch;
  std::string cann_install;
};

std::optional<Sourced> package(const std::vector<PackageRow>& rows, std::string_view name,
                               std::string_view location, std::string source) {
  std::string want = pep503_normalize(name);
  for (const auto& r : rows)
    if (r.normalized == want && (location.empty() || r.location == location))
      return Sourced{r.version, std::move(source), r.evidence};
  return std::nullopt;
}

InUse versions_in_use(const BundleFacts& b, const ProcessLibraries* p) {
  const LibraryFacts& lf = b.libraries;
  InUse u;
  if (p) {
    auto canns = mapped_canns(*p, lf);
    if (canns.size() == 1) {
      u.cann = {canns[0].cann.version, "maps", canns[0].files.front()->evidence};
      u.cann_install = canns[0].cann.install;
    }
    auto proc = b.processes.by_pid.find(p->pid);
    if (u.cann.value.empty() && proc != b.processes.by_pid.end())
      for (std::string_view var : {"ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"})
        if (const std::string* v = proc->second.env(var); v && !v->empty())
          if (auto c = cann_of_path(*v + "/", lf); c && !c->version.empty()) {
            EvidenceRef ev = proc->second.evidence.empty() ? EvidenceRef{} : proc->second.evidence[0];
            u.cann = {c->version, std::string(var), ev};
            u.cann_install = c->install;
            break;
          }
    std::string site;
    if (const MappedFile* t = mapped_torch_npu(*p)) {
      size_t at = t->path.find("/torch_npu/");
      site = t->path.substr(0, at);
    }
    if (!site.empty()) {
      if (auto s = package(p->packages, "torch_npu", site, "packages.tsv beside libtorch_npu.so"))
        u.torch_npu = *s;
      if (auto s = package(p->packages, "torch", site, "packages.tsv beside libtorch_npu.so"))
        u.torch = *s;
    }
    // pip list / pip show of the job's interpreter: what pip saw on that interpreter's path.
    if (u.torch_npu.value.empty())
      if (auto s = package(p->pip, "torch_npu", "", "the process's pip")) u.torch_npu = *s;
    if (u.torch.value.empty())
      if (auto s = package(p->pip, "torch", "", "the process's pip")) u.torch = *s;
    if (u.torch_npu.value.empty())
      if (auto s = package(p->packages, "torch_npu", "", "the process's packages.tsv")) u.torch_npu = *s;
    if (u.torch.value.empty())
      if (auto s = package(p->packages, "torch", "", "the process's packages.tsv")) u.torch = *s;
    if (u.torch_npu.value.empty() && !p->torch_npu_version.empty())
      u.torch_npu = {p->torch_npu_version, "torch_npu/version.py", p->torch_npu_version_evidence};
  }
  if (u.torch_npu.value.empty())
    if (auto s = package(lf.default_pip, "torch_npu", "", "the default pip (python/pip-list.json, pip-show.txt)"))
      u.torch_npu = *s;
  if (u.torch.value.empty())
    if (auto s = package(lf.default_pip, "torch", "", "the default pip (python/pip-list.json, pip-show.txt)"))
      u.torch = *s;
  if (u.torch_npu.value.empty())
    if (auto s = package(lf.default_packages, "torch_npu", "", "the collector's python3 packages"))
      u.torch_npu = *s;
  if (u.torch.value.empty())
    if (auto s = package(lf.default_packages, "torch", "", "the collector's python3 packages"))
      u.torch = *s;
  if (u.cann.value.empty() && lf.cann_index.empty()) {
    // No install records (a paste): a toolkit *_install.info that names one version.
    const VersionFile* only = nullptr;
    bool several = false;
    for (const auto& f : lf.cann_files) {
      if (f.component != "toolkit" || f.get("version").empty()) continue;
      several = several || (only && only->get("version") != f.get("version"));
      only = &f;
    }
    if (only && !several) u.cann = {only->get("version"), "a toolkit *_install.info", only->find("version")->evidence};
  }
  if (u.cann.value.empty()) {
    // Install records: only when they name one version.
    std::string only;
    const CannIndexRow* row = nullptr;
    bool several = false;
    for (const auto& r : lf.cann_index) {
      if (r.kind != "toolkit" || r.version.empty()) continue;
      if (!only.empty() && r.version != only) several = true;
      only = r.version;
      row = &r;
    }
    if (row && !several) {
      u.cann = {only, "install records (ascend/cann/index.tsv)", row->evidence};
      u.cann_install = row->install_dir;
    } else if (several) {
      // Several installs: the one the host's /usr/local/Ascend/cann link resolves to.
      for (const auto& pc : lf.paths) {
        if (pc.seen_from != "host" || pc.path != "/usr/local/Ascend/cann" || pc.type != "l") continue;
        for (const auto& r : lf.cann_index)
          if (r.kind == "toolkit" && (r.resolved_dir == pc.resolved_path || r.install_dir == pc.resolved_path)) {
            u.cann = {r.version, "install records (the /usr/local/Ascend/cann link)", pc.evidence};
            u.cann_install = r.install_dir;
          }
      }
    }
  }
  return u;
}

// The CANN innerversion of an install (its *_install.info).
std::string cann_inner(const LibraryFacts& lf, std::string_view install, std::string_view version) {
  for (const auto& r : lf.cann_index) {
    if (r.install_dir != install && r.resolved_dir != install && r.version != version) continue;
    for (const auto& f : lf.cann_files)
      if (f.cann_id == r.id && f.find("innerversion")) return f.get("innerversion");
  }
  return {};
}

Severity severity_of(Compatibility v) {
  return v == Compatibility::incompatible ? Severity::error : Severity::info;
}

std::string pid_list(const std::vector<int64_t>& pids) {
  std::string s;
  for (size_t i = 0; i < pids.size(); ++i) s += (i ? " " : "") + std::to_string(pids[i]);
  return s;
}

void wheel_finding(const AnalysisContext& ctx, const BundleFacts& b, const InUse& u,
                   const std::vector<int64_t>& pids, std::vector<Finding>& out) {
  if (u.torch_npu.value.empty() || u.cann.value.empty()) return;
  Judgement j = judge_wheel(ctx.version_tables, u.torch_npu.value, u.torch.value, u.cann.value);
  Finding f;
  f.id = "version-matrix/torch-npu-cann";
  f.severity = severity_of(j.verdict);
  f.confidence = u.cann.source == "maps" ? Confidence::high : Confidence::medium;
  f.host = b.host;
  f.observed = fmt::format("{} (pids {}); CANN from {}, torch_npu from {}, torch from {}", j.reason,
                           pids.empty() ? "-" : pid_list(pids), u.cann.source, u.torch_npu.source,
                           u.torch.source.empty() ? "nowhere" : u.torch.source);
  // The verdict names the variant; not-declared has none and keeps the base words.
  std::string verdict(to_string(j.verdict));
  render_finding_words(f, ctx.finding_texts,
                       {{"torch", u.torch.value.empty() ? "?" : u.torch.value},
                        {"torch_npu", u.torch_npu.value}, {"cann", u.cann.value}, {"verdict", verdict}},
                       verdict);
  for (const Sourced* s : {&u.cann, &u.torch_npu, &u.torch})
    if (!s->evidence.entry.empty()) f.evidence.push_back(s->evidence);
  f.value("verdict", verdict)
      .value("torch", u.torch.value)
      .value("torch_npu", u.torch_npu.value)
      .value("cann", u.cann.value)
      .value("cann_source", u.cann.source)
      .value("torch_npu_source", u.torch_npu.source)
      .value("pids", pid_list(pids));
  if (!j.inferred_cann.empty()) f.value("inferred_cann", j.inferred_cann);
  if (!j.source.empty()) f.value("table_source", j.source);
  out.push_back(std::move(f));
}

void cann_driver_finding(const AnalysisContext& ctx, const BundleFacts& b, const InUse& u,
                         std::vector<Finding>& out) {
  const LibraryFacts& lf = b.libraries;
  if (!lf.driver_version || u.cann.value.empty()) return;
  const VersionFile& d = *lf.driver_version;
  std::string driver = d.get("Version");
  if (driver.empty()) driver = d.get("package_version");
  if (driver.empty()) return;
  std::string inner = cann_inner(lf, u.cann_install, u.cann.value);
  Judgement j = judge_cann_driver(ctx.version_tables, u.cann.value, driver,
                                  d.get("compatible_version"), inner);
  Finding f;
  f.id = "version-matrix/cann-driver";
  f.severity = severity_of(j.verdict);
  f.confidence = Confidence::medium;
  f.host = b.host;
  f.observed = j.reason;
  std::string verdict(to_string(j.verdict));
  render_finding_words(f, ctx.finding_texts, {{"cann", u.cann.value}, {"driver", driver}, {"verdict", verdict}},
                       verdict);
  if (const KeyValueLine* l = d.find("Version")) f.evidence.push_back(l->evidence);
  if (const KeyValueLine* l = d.find("compatible_version")) f.evidence.push_back(l->evidence);
  if (!u.cann.evidence.entry.empty()) f.evidence.push_back(u.cann.evidence);
  f.value("verdict", verdict).value("cann", u.cann.value)
      .value("driver", driver).value("cann_inner", inner);
  out.push_back(std::move(f));
}

void driver_firmware_finding(const AnalysisContext& ctx, const BundleFacts& b, std::vector<Finding>& out) {
  const LibraryFacts& lf = b.libraries;
  if (!lf.driver_version || !lf.firmware_version) return;
  std::string driver = lf.driver_version->get("Version");
  std::string fw = lf.firmware_version->get("Version");
  if (driver.empty() || fw.empty()) return;
  Judgement j = judge_driver_firmware(driver, fw, lf.driver_version->get("compatible_version_fw"),
                                      lf.firmware_version->get("compatible_version_drv"));
  Finding f;
  f.id = "version-matrix/driver-firmware";
  f.severity = Severity::info;  // an exclusion is never declared in these files
  f.confidence = Confidence::medium;
  f.host = b.host;
  f.observed = j.reason;
  std::string verdict(to_string(j.verdict));
  render_finding_words(f, ctx.finding_texts, {{"driver", driver}, {"firmware", fw}, {"verdict", verdict}});
  for (const VersionFile* v : {&*lf.driver_version, &*lf.firmware_version})
    if (const KeyValueLine* l = v->find("Version")) f.evidence.push_back(l->evidence);
  f.value("verdict", verdict).value("driver", driver).value("firmware", fw);
  out.push_back(std::move(f));
}

}  // namespace

void analyze_version_matrix(const AnalysisContext& ctx, std::vector<Finding>& out) {
  const EvidenceSet& evidence = ctx.evidence;
  for (const auto& b : evidence.bundles) {
    std::map<std::tuple<std::string, std::string, std::string>, std::pair<InUse, std::vector<int64_t>>>
        combos;
    for (const auto& [pid, p] : b.libraries.by_pid) {
      if (!p.has_maps && !p.has_packages && !p.has_pip && p.torch_npu_version.empty()) continue;
      InUse u = versions_in_use(b, &p);
      auto& slot = combos[{u.torch.value, u.torch_npu.value, u.cann.value}];
      if (slot.second.empty()) slot.first = u;
      slot.second.push_back(pid);
    }
    if (combos.empty()) {
      InUse u = versions_in_use(b, nullptr);
      combos[{u.torch.value, u.torch_npu.value, u.cann.value}] = {u, {}};
    }
    std::set<std::string> judged_canns;
    for (const auto& [key, c] : combos) {
      wheel_finding(ctx, b, c.first, c.second, out);
      if (judged_canns.insert(c.first.cann.value).second) cann_driver_finding(ctx, b, c.first, out);
    }
    driver_firmware_finding(ctx, b, out);
  }
}

}  // namespace triage
