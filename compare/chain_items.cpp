#include "compare/chain_items.h"

#include <map>

namespace triage {
namespace {

class Items {
 public:
  ChainItem& add(ChainLayer layer, std::string item, std::string value, const EvidenceRef& ev) {
    auto [it, fresh] = index_.try_emplace({layer, item}, out_.size());
    if (fresh) {
      out_.emplace_back();
      out_.back().layer = layer;
      out_.back().item = std::move(item);
      out_.back().value = std::move(value);
    } else {
      out_[it->second].value += "; " + value;
    }
    if (!ev.entry.empty()) out_[it->second].evidence.push_back(ev);
    return out_[it->second];
  }
  std::vector<ChainItem> take() { return std::move(out_); }

 private:
  std::map<std::pair<ChainLayer, std::string>, size_t> index_;
  std::vector<ChainItem> out_;
};

std::string describe(const ChainModuleFile& f) {
  std::string s = f.type == "link" ? "link -> " + f.link_target : f.type;
  if (!f.build_id.empty()) s += "; build id " + f.build_id;
  if (!f.srcversion.empty()) s += "; srcversion " + f.srcversion;
  if (!f.vermagic.empty()) s += "; vermagic " + f.vermagic;
  return s;
}

// "updates/dkms/drv_pcie_host" for /lib/modules/<kver>/updates/dkms/drv_pcie_host.ko[.xz]: how
// module-provenance's values name a module file ("" outside /lib/modules/<kver>/).
std::string module_rel(const std::string& kver, const std::string& path) {
  std::string prefix = "/lib/modules/" + kver + "/";
  if (!path.starts_with(prefix)) return "";
  std::string rel = path.substr(prefix.size());
  size_t ko = rel.rfind(".ko");
  return ko == std::string::npos ? rel : rel.substr(0, ko);
}

std::string set_of(const std::string& rel) {
  size_t slash = rel.rfind('/');
  return slash == std::string::npos ? "." : rel.substr(0, slash);
}

// The values module-provenance writes: module.<name> = "resident=<set> (build id <8>);
// next_boot=<set> (<source>)", chain.<name> = the resolved chain's files.
void mark_file(ChainItem& i, const ChainModule& m, const std::string& path) {
  std::string rel = module_rel(m.kver, path);
  if (rel.empty()) return;
  i.marks.push_back({"module." + m.name, "=" + set_of(rel) + " ("});
  i.marks.push_back({"chain.", rel});
}

std::string version_label(const ChainVersion& v) {
  if (v.component.starts_with("cann:")) return "CANN " + v.component.substr(5);
  return v.component;
}

}  // namespace

std::vector<ChainItem> chain_items(const Chain& c) {
  Items out;
  if (!c.kernel_release.empty()) out.add(ChainLayer::kernel, "kernel release", c.kernel_release, c.kernel_evidence);
  for (const auto& m : c.modules) {
    std::string head = "module " + m.name;
    for (const auto& f : m.files)
      mark_file(out.add(ChainLayer::modules, head + " file " + f.path, describe(f), f.evidence), m, f.path);
    if (!m.next_load.empty())
      mark_file(out.add(ChainLayer::modules, head + " next load (" + m.kver + ")", m.next_load, m.next_load_evidence),
                m, m.next_load);
    if (m.resident) {
      std::string v = m.resident_build_id.empty() ? "no build id" : "build id " + m.resident_build_id;
      if (!m.resident_srcversion.empty()) v += "; srcversion " + m.resident_srcversion;
      ChainItem& i = out.add(ChainLayer::modules, head + " resident", v, m.resident_evidence);
      if (m.resident_build_id.size() >= 8)
        i.marks.push_back({"module." + m.name, "build id " + m.resident_build_id.substr(0, 8)});
    }
  }
  for (const auto& v : c.versions) {
    if (v.component == "link") out.add(ChainLayer::versions, "link " + v.dir, "-> " + v.version, v.evidence);
    else if (v.component.starts_with("cann:"))
      out.add(ChainLayer::versions, version_label(v) + " " + v.dir, v.version, v.evidence);
    else out.add(ChainLayer::versions, v.component, v.version + " in " + v.dir, v.evidence);
  }
  for (const auto& w : c.wheels)
    out.add(ChainLayer::wheels, "wheel " + w.name + " (" + w.scope + ")", w.version, w.evidence);
  for (const auto& p : c.processes) {
    std::string head = "process " + p.key;
    out.add(ChainLayer::processes, head, p.cmdline, p.cmdline_evidence);
    for (const auto& l : p.libraries)
      out.add(ChainLayer::processes, head + " library " + l.name, l.path + (l.deleted ? " (deleted)" : ""),
              l.evidence);
    for (const auto& [k, v] : p.environment)
      out.add(ChainLayer::processes, head + " env " + k, v, p.environ_evidence).token = k;
    for (const auto& m : p.mounts)
      out.add(ChainLayer::processes, head + " mount " + m.mount_point,
              m.source + " " + m.root + " (" + m.fstype + ")", m.evidence);
  }
  return out.take();
}

}  // namespace triage
