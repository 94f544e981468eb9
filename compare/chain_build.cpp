// Builds the chain from facts the parsers already extracted: modules/tree.tsv, sysfs.tsv and
// modprobe's resolution; the version files and ascend/cann/index.tsv; packages.tsv; and per
// process its cmdline, environ, maps and mountinfo.
#include "compare/chain_build.h"

#include <algorithm>
#include <map>
#include <set>

#include "compare/chain_processes.h"
#include "model/pep440.h"
#include "model/time.h"

namespace triage {
namespace {

std::string next_load_of(const ModuleFacts& m, const std::string& kver, const std::string& name,
                         EvidenceRef& ev) {
  for (const auto& r : m.resolutions)
    if (!r.dry_run && r.kver == kver)
      for (const auto& s : r.steps)
        if (!s.builtin && s.name == name) return ev = s.evidence, s.path;
  for (const auto& mi : m.modinfo)
    if (mi.kver == kver && mi.module == name && !mi.filename.empty()) return ev = mi.evidence, mi.filename;
  for (const auto& d : m.dep_lines)
    if (d.kver == kver && d.module == name && !d.path.empty()) {
      ev = d.evidence;
      return d.path.front() == '/' ? d.path : "/lib/modules/" + kver + "/" + d.path;
    }
  return "";
}

void add_modules(const BundleFacts& b, const std::string& running, Chain& c) {
  const ModuleFacts& m = b.modules;
  std::map<std::pair<std::string, std::string>, ChainModule> by;
  for (const auto& f : m.files) {
    ChainModule& cm = by[{f.kver, f.module}];
    ChainModuleFile cf{f.path, f.is_link ? "link" : "file", f.link_target, f.resolved_path,
                       f.build_id, f.srcversion, f.vermagic, f.evidence};
    cm.files.push_back(std::move(cf));
  }
  // Resident copies belong to the running kernel.
  for (const auto& r : m.resident) {
    ChainModule& cm = by[{running, r.name}];
    cm.resident = true;
    cm.resident_build_id = r.build_id;
    cm.resident_srcversion = r.srcversion;
    cm.resident_evidence = r.evidence;
  }
  for (auto& [key, cm] : by) {
    cm.kver = key.first;
    cm.name = key.second;
    std::sort(cm.files.begin(), cm.files.end(), [](const auto& x, const auto& y) { return x.path < y.path; });
    cm.next_load = next_load_of(m, cm.kver, cm.name, cm.next_load_evidence);
    c.modules.push_back(std::move(cm));
  }
}

// The real directory of an install path as ascend/paths.tsv shows it from the host.
std::string real_dir(const LibraryFacts& lf, const std::string& path) {
  for (const auto& p : lf.paths)
    if (p.seen_from == "host" && p.path == path && !p.resolved_path.empty()) return p.resolved_path;
  return path;
}

EvidenceRef version_evidence(const VersionFile& f) {
  if (const KeyValueLine* v = f.find("Version")) return v->evidence;
  EvidenceRef e;
  e.entry = f.entry;
  return e;
}

void add_versions(const LibraryFacts& lf, Chain& c) {
  if (lf.driver_version) {
    const VersionFile& d = *lf.driver_version;
    c.versions.push_back({"driver", d.get("Version"), real_dir(lf, "/usr/local/Ascend/driver"),
                          d.get("Innerversion"), d.get("compatible_version"),
                          d.get("compatible_version_fw"), version_evidence(d)});
  }
  if (lf.firmware_version) {
    const VersionFile& f = *lf.firmware_version;
    c.versions.push_back({"firmware", f.get("Version"), real_dir(lf, "/usr/local/Ascend/firmware"), "",
                          f.get("compatible_version_drv"), "", version_evidence(f)});
  }
  for (const auto& row : lf.cann_index) {
    std::string inner;
    for (const auto& f : lf.cann_files)
      if (f.cann_id == row.id && f.find("innerversion")) inner = f.get("innerversion");
    ChainVersion v{"cann:" + row.kind, row.version,
                   row.resolved_dir.empty() ? row.install_dir : row.resolved_dir, inner, "", "", row.evidence};
    // The install directory is the key: keep where it points when a link names it.
    if (!row.install_dir.empty() && row.install_dir != v.dir) v.dir = row.install_dir + " -> " + v.dir;
    c.versions.push_back(std::move(v));
  }
  // Host links such as /usr/local/Ascend/cann -> cann-9.1.0: which install "latest" means.
  for (const auto& p : lf.paths)
    if (p.seen_from == "host" && p.type == "l")
      c.versions.push_back({"link", p.resolved_path, p.path, "", "", "", p.evidence});
  std::sort(c.versions.begin(), c.versions.end(), [](const auto& x, const auto& y) {
    return std::tie(x.component, x.dir) < std::tie(y.component, y.dir);
  });
}

void add_wheels(const std::vector<PackageRow>& rows, const std::string& scope, const ChainSelection& sel,
                Chain& c) {
  for (const auto& r : rows) {
    std::string name = r.normalized.empty() ? pep503_normalize(r.name) : r.normalized;
    if (!sel.keeps_wheel(name)) continue;
    c.wheels.push_back({scope, name, r.version, r.location, r.evidence});
  }
}

}  // namespace

Chain build_chain(const BundleFacts& b, const ChainSelection& sel) {
  Chain c;
  c.input = b.input;
  c.host = b.host;
  if (b.system.collected_at_us) c.collected_at = format_utc(*b.system.collected_at_us);
  c.kernel_release = b.system.kernel_release;
  if (b.system.uname) c.kernel_evidence = b.system.uname->evidence;
  const KernelDir* rk = b.modules.running_kernel();
  std::string running = rk ? rk->kver : b.system.kernel_release;
  add_modules(b, running, c);
  add_versions(b.libraries, c);
  if (b.libraries.has_default_packages) add_wheels(b.libraries.default_packages, "host", sel, c);
  else if (b.libraries.has_default_pip) add_wheels(b.libraries.default_pip, "host", sel, c);
  c.processes = build_chain_processes(b, sel);
  for (const auto& p : c.processes)
    if (auto it = b.libraries.by_pid.find(p.pid); it != b.libraries.by_pid.end()) {
      const ProcessLibraries& pl = it->second;
      add_wheels(pl.has_packages ? pl.packages : pl.pip, "process " + p.key, sel, c);
    }
  std::stable_sort(c.wheels.begin(), c.wheels.end(), [](const auto& x, const auto& y) {
    return std::tie(x.scope, x.name) < std::tie(y.scope, y.name);
  });
  return c;
}

}  // namespace triage
