#include "compare/chain_processes.h"

#include <algorithm>
#include <map>

#include "correlator/analyses/library_provenance.h"

namespace triage {
namespace {

std::string basename_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string dirname_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
}

// The install a mapped library belongs to: its CANN, the driver, else its directory.
std::string version_dir_of(const std::string& path, const LibraryFacts& lf) {
  if (auto cann = cann_of_path(path, lf)) return cann->install;
  size_t at = path.find("/Ascend/driver/");
  if (at != std::string::npos) return path.substr(0, at + 14);
  at = path.find("/torch_npu/");
  if (at != std::string::npos) return path.substr(0, at + 10);
  return dirname_of(path);
}

// The rank, else the program and what it runs: "python3 train.py", "python3 -m vllm...":
// the same role across runs even when its options changed (the options are an item).
std::string key_of(const ProcessInfo& p, const ChainSelection& sel) {
  for (const auto& name : sel.rank_envs)
    if (const std::string* v = p.env(name); v && !v->empty()) return "rank " + *v;
  if (p.argv.empty()) return "(no command line)";
  std::string key = basename_of(p.argv[0]);
  for (size_t i = 1; i < p.argv.size(); ++i) {
    const std::string& a = p.argv[i];
    if ((a == "-m" || a == "-c") && i + 1 < p.argv.size()) return key + " " + a + " " + p.argv[i + 1];
    if (a.starts_with("-")) continue;  // interpreter options (-u, -I)
    return key + " " + a;
  }
  return key;
}

bool under(const std::string& path, const std::string& dir) {
  if (dir == "/") return false;  // the root mount holds everything: not a useful link
  return path.size() > dir.size() && path.starts_with(dir) && path[dir.size()] == '/';
}

}  // namespace

std::vector<ChainProcess> build_chain_processes(const BundleFacts& b, const ChainSelection& sel) {
  std::vector<ChainProcess> out;
  const LibraryFacts& lf = b.libraries;
  for (const auto& [pid, info] : b.processes.by_pid) {  // pid order: numbering is stable
    ChainProcess cp;
    cp.pid = pid;
    for (const auto& a : info.argv) cp.cmdline += (cp.cmdline.empty() ? "" : " ") + a;
    cp.key = key_of(info, sel);
    for (const auto& [k, v] : info.environ)
      if (sel.keeps_env(k)) cp.environment.emplace_back(k, v);
    std::stable_sort(cp.environment.begin(), cp.environment.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& e : info.evidence) {
      if (e.entry.ends_with("/cmdline")) cp.cmdline_evidence = e;
      if (e.entry.ends_with("/environ")) cp.environ_evidence = e;
    }
    auto it = lf.by_pid.find(pid);
    if (it != lf.by_pid.end()) {
      const ProcessLibraries& pl = it->second;
      for (const auto& f : pl.files)
        if (origin_of(f.path) != LibOrigin::none)
          cp.libraries.push_back({basename_of(f.path), f.path, version_dir_of(f.path, lf), f.deleted, f.evidence});
      std::stable_sort(cp.libraries.begin(), cp.libraries.end(), [](const auto& x, const auto& y) {
        return std::tie(x.name, x.path) < std::tie(y.name, y.path);
      });
      for (const auto& m : pl.mounts.entries) {
        bool keep = sel.marks_mount(m.mount_point) || sel.marks_mount(m.root);
        for (const auto& l : cp.libraries) keep = keep || under(l.path, m.mount_point);
        if (keep) cp.mounts.push_back({m.mount_point, m.root, m.source, m.fstype, m.evidence});
      }
      std::stable_sort(cp.mounts.begin(), cp.mounts.end(),
                       [](const auto& x, const auto& y) { return x.mount_point < y.mount_point; });
    }
    out.push_back(std::move(cp));
  }
  std::map<std::string, int> seen;
  for (auto& p : out)
    if (int n = ++seen[p.key]; n > 1) p.key += " #" + std::to_string(n);
  std::stable_sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.key < y.key; });
  return out;
}

}  // namespace triage
