// module-provenance: per kernel, the Ascend module sets on disk (tree.tsv), which one is
// resident (sysfs build ids matched against the files; srcversion only where both sides
// have it) and which one modprobe resolves for the next boot (--show-depends, modinfo,
// modprobe -n -v, modules.dep). Equal vermagic never settles provenance. The findings' words
// are data: knowledge/findings/modules.tsv.
#include "correlator/analyses/module_provenance.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

namespace triage {

namespace {
bool has_module_state(const BundleFacts& b) {
  const auto& m = b.modules;
  return !m.files.empty() || !m.resident.empty() || !m.pci.empty() || !m.kernels.empty();
}
}  // namespace

const BundleFacts* latest_module_bundle(const HostGroup& group) {
  const BundleFacts* best = nullptr;
  for (const BundleFacts* b : group.bundles) {
    if (!has_module_state(*b)) continue;
    if (!best) {
      best = b;
      continue;
    }
    auto t = b->system.collected_at_us, bt = best->system.collected_at_us;
    if (!t || !bt || *t >= *bt) best = b;
  }
  return best;
}

std::string module_set_of(std::string_view kver, std::string_view path) {
  std::string prefix = fmt::format("/lib/modules/{}/", kver);
  std::string_view rest = path;
  if (rest.substr(0, prefix.size()) == prefix) rest.remove_prefix(prefix.size());
  else if (rest.find('/') == std::string_view::npos) return "";  // relative, no directory
  size_t slash = rest.rfind('/');
  return slash == std::string_view::npos ? std::string(".") : std::string(rest.substr(0, slash));
}

namespace {

struct ResidentMatch {
  const ResidentModule* resident = nullptr;
  const ModuleFile* file = nullptr;  // null = unmatched or unknown
  bool comparable = false;           // some candidate had an id to compare
};

struct NextLoad {
  std::string path, source;
  EvidenceRef evidence;
};

bool ids_match(const ResidentModule& r, const ModuleFile& f, bool& comparable) {
  if (!r.build_id.empty() && !f.build_id.empty()) {
    comparable = true;
    return r.build_id == f.build_id;
  }
  if (!r.srcversion.empty() && !f.srcversion.empty()) {
    comparable = true;
    return r.srcversion == f.srcversion;
  }
  return false;
}

std::string short_id(const std::string& id) { return id.size() > 8 ? id.substr(0, 8) : id; }

int64_t file_time(const ModuleFile& f) {
  return f.target_mtime.value_or(f.link_mtime.value_or(0));
}

class Analysis {
 public:
  Analysis(const BundleFacts& b, std::string host, const FindingTexts& texts, std::vector<Finding>& out)
      : b_(b), m_(b.modules), host_(std::move(host)), texts_(texts), out_(out) {}

  void run() {
    std::set<std::string> kvers;
    for (const auto& f : m_.files) kvers.insert(f.kver);
    running_ = m_.running_kernel() ? m_.running_kernel()->kver : b_.system.kernel_release;
    boot_ = m_.boot_kernel() ? m_.boot_kernel()->kver : running_;
    match_resident();
    for (const auto& k : kvers) per_kernel(k);
    resident_unmatched();
    dkms_disagrees(kvers);
  }

 private:
  void match_resident() {
    for (const auto& r : m_.resident) {
      ResidentMatch rm;
      rm.resident = &r;
      for (const auto& f : m_.files) {
        if (f.kver != running_ || f.module != r.name) continue;
        if (ids_match(r, f, rm.comparable)) {
          rm.file = &f;
          break;
        }
      }
      matches_.push_back(rm);
    }
  }

  // What modprobe resolves for a module of kernel kver, best source first.
  std::optional<NextLoad> next_load(const std::string& kver, const std::string& module) {
    for (const auto& r : m_.resolutions)
      if (!r.dry_run && r.kver == kver)
        for (const auto& s : r.steps)
          if (!s.builtin && s.name == module)
            return NextLoad{s.path, "modprobe --show-depends", s.evidence};
    for (const auto& mi : m_.modinfo)
      if (mi.kver == kver && mi.module == module && !mi.filename.empty())
        return NextLoad{mi.filename, "modinfo", mi.evidence};
    if (kver == running_)
      for (const auto& r : m_.resolutions)
        if (r.dry_run)
          for (const auto& s : r.steps)
            if (!s.builtin && s.name == module) return NextLoad{s.path, "modprobe -n -v", s.evidence};
    for (const auto& d : m_.dep_lines)
      if (d.kver == kver && d.module == module) {
        std::string p = d.path.front() == '/' ? d.path : fmt::format("/lib/modules/{}/{}", kver, d.path);
        return NextLoad{p, "modules.dep", d.evidence};
      }
    return std::nullopt;
  }

  void per_kernel(const std::string& kver) {
    std::map<std::string, std::vector<const ModuleFile*>> sets;
    for (const auto& f : m_.files)
      if (f.kver == kver) sets[module_set_of(kver, f.path)].push_back(&f);
    dangling(kver, sets);
    stale_links(kver, sets);
    bool is_running = kver == running_, is_boot = kver == boot_;
    std::map<std::string, int> resident_per_set, next_per_set;
    std::vector<std::pair<std::string, std::string>> detail;
    std::set<std::string> modules;
    for (const auto& [_, files] : sets)
      for (auto* f : files) modules.insert(f->module);
    std::vector<EvidenceRef> ev;
    for (const auto& mod : modules) {
      std::string line;
      if (is_running)
        for (const auto& rm : matches_)
          if (rm.resident->name == mod) {
            if (rm.file) {
              std::string set = module_set_of(kver, rm.file->path);
              ++resident_per_set[set];
              line += fmt::format("resident={} (build id {})", set, short_id(rm.resident->build_id));
              if (ev.size() < 6) ev.push_back(rm.resident->evidence), ev.push_back(rm.file->evidence);
            } else {
              line += rm.comparable ? "resident=no file matches" : "resident=unknown (no ids)";
            }
          }
      if (is_boot)
        if (auto n = next_load(kver, mod)) {
          std::string set = module_set_of(kver, n->path);
          ++next_per_set[set];
          line += fmt::format("{}next_boot={} ({})", line.empty() ? "" : "; ", set, n->source);
        }
      if (!line.empty()) detail.emplace_back("module." + mod, line);
    }
    mixed_chains(kver, sets);
    stale_depmod(kver, sets);
    if (sets.size() < 2) return;
    // Two or more sets hold the same module for one kernel.
    bool overlap = false;
    std::map<std::string, int> seen;
    for (const auto& [_, files] : sets)
      for (auto* f : files)
        if (++seen[f->module] > 1) overlap = true;
    if (!overlap) return;
    two_sets(kver, sets, resident_per_set, next_per_set, detail, ev);
  }

  static std::string describe_sets(const std::map<std::string, std::vector<const ModuleFile*>>& sets) {
    std::string s;
    for (const auto& [set, files] : sets) {
      size_t links = std::count_if(files.begin(), files.end(), [](auto* f) { return f->is_link; });
      int64_t newest = 0;
      for (auto* f : files) newest = std::max(newest, file_time(*f));
      if (!s.empty()) s += "; ";
      s += fmt::format("{}: {} modules ({} links){}", set, files.size(), links,
                       links && !files.front()->resolved_path.empty() && files.front()->is_link
                           ? " -> " + files.front()->resolved_path.substr(0, files.front()->resolved_path.rfind('/'))
                           : "");
      (void)newest;
    }
    return s;
  }

  static std::string majority(const std::map<std::string, int>& per_set) {
    if (per_set.empty()) return "";
    if (per_set.size() > 1) {
      std::string s = "mixed:";
      for (const auto& [set, n] : per_set) s += fmt::format(" {}={}", set, n);
      return s;
    }
    return per_set.begin()->first;
  }

  void two_sets(const std::string& kver,
                const std::map<std::string, std::vector<const ModuleFile*>>& sets,
                const std::map<std::string, int>& resident_per_set,
                const std::map<std::string, int>& next_per_set,
                const std::vector<std::pair<std::string, std::string>>& detail,
                std::vector<EvidenceRef> ev) {
    // Newest set by file times: the last installation written to this kernel.
    std::string newest_set;
    int64_t newest = -1;
    for (const auto& [set, files] : sets)
      for (auto* f : files)
        if (file_time(*f) > newest) newest = file_time(*f), newest_set = set;
    std::string resident = majority(resident_per_set), next = majority(next_per_set);
    bool stale_resident = !resident.empty() && resident != newest_set;
    Finding f;
    f.id = "module-provenance/two-sets";
    f.severity = stale_resident || next.rfind("mixed", 0) == 0 ? Severity::error : Severity::warning;
    f.confidence = resident_per_set.empty() ? Confidence::medium : Confidence::high;
    f.host = host_;
    f.observed = fmt::format(
        "tree.tsv lists {} for kernel {}. Newest files: {}. Resident (sysfs build ids): {}. "
        "Next boot resolves to: {}.",
        describe_sets(sets), kver, newest_set, resident.empty() ? "not this kernel / unknown" : resident,
        next.empty() ? "not resolved" : next);
    render_finding_words(f, texts_,
                         {{"kver", kver}, {"sets", std::to_string(sets.size())}, {"resident_set", resident}},
                         stale_resident ? "stale-resident" : "");
    f.evidence = std::move(ev);
    for (const auto& d : m_.dkms)
      if (d.kver == kver && f.evidence.size() < 10) f.evidence.push_back(d.evidence);
    f.value("kver", kver).value("sets", std::to_string(sets.size()))
        .value("newest_set", newest_set).value("resident_set", resident)
        .value("next_boot_set", next).value("running_kernel", running_).value("boot_kernel", boot_);
    for (const auto& [set, files] : sets) f.value("set." + set, std::to_string(files.size()));
    for (const auto& d : detail) f.values.push_back(d);
    out_.push_back(std::move(f));
  }

  void mixed_chains(const std::string& kver,
                    const std::map<std::string, std::vector<const ModuleFile*>>& sets) {
    if (sets.size() < 2) return;
    std::vector<std::string> mods;
    std::vector<EvidenceRef> ev;
    for (const auto& r : m_.resolutions) {
      if (r.dry_run || r.kver != kver) continue;
      std::set<std::string> used;
      for (const auto& s : r.steps)
        if (!s.builtin) used.insert(module_set_of(kver, s.path));
      if (used.size() < 2) continue;
      std::string chain;
      for (const auto& s : r.steps) chain += (chain.empty() ? "" : " ") + module_set_of(kver, s.path) + "/" + s.name;
      mods.push_back(r.module + ": " + chain);
      if (ev.size() < 8) ev.push_back(r.steps.back().evidence), ev.push_back(r.steps.front().evidence);
    }
    if (mods.empty()) return;
    Finding f;
    f.id = "module-provenance/mixed-chain";
    f.severity = Severity::error;
    f.confidence = Confidence::high;
    f.host = host_;
    f.observed = fmt::format("`modprobe --show-depends` chains that take modules from more than one "
                             "set: {}", mods.front());
    render_finding_words(f, texts_, {{"kver", kver}, {"chains", std::to_string(mods.size())}});
    f.evidence = std::move(ev);
    f.value("kver", kver).value("chains", std::to_string(mods.size()));
    for (const auto& m : mods) f.value("chain." + m.substr(0, m.find(':')), m.substr(m.find(':') + 2));
    out_.push_back(std::move(f));
  }

  void dangling(const std::string& kver,
                const std::map<std::string, std::vector<const ModuleFile*>>& sets) {
    std::vector<const ModuleFile*> bad;
    for (const auto& [_, files] : sets)
      for (auto* f : files)
        if (f->is_link && f->target_exists == false) bad.push_back(f);
    if (bad.empty()) return;
    bool next = false;
    for (auto* f : bad)
      if (kver == boot_)
        if (auto n = next_load(kver, f->module); n && n->path == f->path) next = true;
    Finding f;
    f.id = "module-provenance/dangling-link";
    f.severity = next ? Severity::error : Severity::warning;
    f.confidence = Confidence::high;
    f.host = host_;
    f.observed = fmt::format("{} -> {} (target missing){}", bad.front()->path, bad.front()->link_target,
                             next ? "; modprobe resolves this path for the next load" : "");
    render_finding_words(f, texts_, {{"kver", kver}, {"links", std::to_string(bad.size())}});
    for (auto* d : bad)
      if (f.evidence.size() < 8) f.evidence.push_back(d->evidence);
    f.value("kver", kver).value("links", std::to_string(bad.size()));
    for (auto* d : bad) f.value("link." + d->module, d->path + " -> " + d->link_target);
    out_.push_back(std::move(f));
  }

  // Links into a DKMS tree version that `dkms status` does not list: a historical install
  // directory that DKMS no longer manages.
  void stale_links(const std::string& kver,
                   const std::map<std::string, std::vector<const ModuleFile*>>& sets) {
    if (!m_.have_dkms_status) return;
    constexpr std::string_view kDkms = "/var/lib/dkms/";
    std::vector<const ModuleFile*> bad;
    std::string where;
    for (const auto& [_, files] : sets)
      for (auto* f : files) {
        const std::string& t = f->resolved_path.empty() ? f->link_target : f->resolved_path;
        if (!f->is_link || t.rfind(kDkms, 0) != 0) continue;
        auto parts = split_path(t.substr(kDkms.size()));
        if (parts.size() < 2) continue;
        bool listed = false;
        for (const auto& d : m_.dkms)
          if (d.name == parts[0] && d.version == parts[1] && (d.kver.empty() || d.kver == kver)) listed = true;
        if (!listed) {
          bad.push_back(f);
          where = std::string(kDkms) + parts[0] + "/" + parts[1];
        }
      }
    if (bad.empty()) return;
    Finding f;
    f.id = "module-provenance/stale-link";
    f.severity = Severity::warning;
    f.confidence = Confidence::medium;
    f.host = host_;
    f.observed = fmt::format("{} -> {}", bad.front()->path, bad.front()->link_target);
    render_finding_words(f, texts_,
                         {{"kver", kver}, {"links", std::to_string(bad.size())}, {"dkms_tree", where}});
    for (auto* b : bad)
      if (f.evidence.size() < 8) f.evidence.push_back(b->evidence);
    f.value("kver", kver).value("links", std::to_string(bad.size())).value("dkms_tree", where);
    out_.push_back(std::move(f));
  }

  static std::vector<std::string> split_path(std::string_view s) {
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos <= s.size()) {
      size_t end = s.find('/', pos);
      if (end == std::string_view::npos) end = s.size();
      if (end > pos) out.emplace_back(s.substr(pos, end - pos));
      pos = end + 1;
    }
    return out;
  }

  void stale_depmod(const std::string& kver,
                    const std::map<std::string, std::vector<const ModuleFile*>>& sets) {
    const KernelDir* k = nullptr;
    for (const auto& kd : m_.kernels)
      if (kd.kver == kver) k = &kd;
    if (!k || !k->modules_dep_mtime) return;
    const ModuleFile* newest = nullptr;
    for (const auto& [_, files] : sets)
      for (auto* f : files) {
        int64_t t = std::max(f->link_mtime.value_or(0), f->is_link ? 0 : f->target_mtime.value_or(0));
        if (t > *k->modules_dep_mtime && (!newest || t > file_time(*newest))) newest = f;
      }
    if (!newest) return;
    Finding f;
    f.id = "module-provenance/stale-depmod";
    f.severity = Severity::warning;
    f.confidence = Confidence::medium;
    f.host = host_;
    f.observed = fmt::format("modules.dep mtime {} < {} written at {}", *k->modules_dep_mtime,
                             newest->path, file_time(*newest));
    render_finding_words(f, texts_, {{"kver", kver}});
    f.evidence = {k->evidence, newest->evidence};
    f.value("kver", kver).value("modules_dep_mtime", std::to_string(*k->modules_dep_mtime));
    out_.push_back(std::move(f));
  }

  void resident_unmatched() {
    std::vector<const ResidentMatch*> bad;
    for (const auto& rm : matches_)
      if (!rm.file && (rm.comparable || (m_.have_tree && !rm.resident->build_id.empty() &&
                                          std::none_of(m_.files.begin(), m_.files.end(), [&](const ModuleFile& f) {
                                            return f.kver == running_ && f.module == rm.resident->name;
                                          }))))
        bad.push_back(&rm);
    if (bad.empty() || !m_.have_tree) return;
    Finding f;
    f.id = "module-provenance/resident-unmatched";
    f.severity = Severity::warning;
    f.confidence = Confidence::high;
    f.host = host_;
    f.observed = fmt::format("{} is loaded with build id {}, and no file under /lib/modules/{} has that id",
                             bad.front()->resident->name, bad.front()->resident->build_id, running_);
    render_finding_words(f, texts_, {{"modules", std::to_string(bad.size())}, {"kver", running_}});
    for (auto* rm : bad) {
      if (f.evidence.size() < 8) f.evidence.push_back(rm->resident->evidence);
      f.value("module." + rm->resident->name, rm->resident->build_id);
    }
    out_.push_back(std::move(f));
  }

  void dkms_disagrees(const std::set<std::string>& kvers) {
    for (const auto& d : m_.dkms) {
      if (d.kver.empty() || d.state.rfind("installed", 0) != 0 || !kvers.count(d.kver)) continue;
      std::string marker = fmt::format("/var/lib/dkms/{}/{}/", d.name, d.version);
      bool any_dkms = false;
      for (const auto& f : m_.files)
        if (f.kver == d.kver && (module_set_of(d.kver, f.path).find("dkms") != std::string::npos ||
                                 f.resolved_path.find(marker) != std::string::npos))
          any_dkms = true;
      if (any_dkms) continue;
      Finding f;
      f.id = "module-provenance/dkms-disagrees";
      f.severity = Severity::warning;
      f.confidence = Confidence::medium;
      f.host = host_;
      f.observed = fmt::format("dkms status: {}; tree.tsv has no module under updates/dkms for {}",
                               d.evidence.excerpt, d.kver);
      render_finding_words(f, texts_, {{"dkms", d.name + "/" + d.version}, {"kver", d.kver}});
      f.evidence = {d.evidence};
      f.value("kver", d.kver).value("dkms", d.name + "/" + d.version);
      out_.push_back(std::move(f));
    }
  }

  const BundleFacts& b_;
  const ModuleFacts& m_;
  std::string host_;
  const FindingTexts& texts_;  // knowledge/findings/modules.tsv
  std::vector<Finding>& out_;
  std::string running_, boot_;
  std::vector<ResidentMatch> matches_;
};

}  // namespace

void analyze_module_provenance(const AnalysisContext& ctx, std::vector<Finding>& findings) {
  const EvidenceSet& evidence = ctx.evidence;
  for (const auto& group : evidence.groups()) {
    const BundleFacts* b = latest_module_bundle(group);
    if (!b || (b->modules.files.empty() && b->modules.resident.empty())) continue;
    Analysis(*b, group.host, ctx.finding_texts, findings).run();
  }
}

}  // namespace triage
