#pragma once
// In-memory facts for the library analyses' tests.
#include <string>
#include <vector>

#include "model/host_facts.h"

namespace libtest {

using namespace triage;

inline EvidenceRef ev(std::string entry, uint64_t line = 1) {
  return make_evidence(entry, line, 0, entry);
}

inline void map_file(BundleFacts& b, int64_t pid, std::string path, bool deleted = false) {
  ProcessLibraries& p = b.libraries.process(pid);
  p.has_maps = true;
  p.files.push_back(MappedFile{path, deleted, ev("processes/" + std::to_string(pid) + "/maps",
                                                 p.files.size() + 1)});
}

inline void package(BundleFacts& b, int64_t pid, std::string name, std::string version,
                    std::string location = "/usr/local/lib/python3.10/dist-packages") {
  ProcessLibraries& p = b.libraries.process(pid);
  p.has_packages = true;
  std::string norm = name == "torch_npu" ? "torch-npu" : name;
  p.packages.push_back(PackageRow{name, norm, version, location, "dist-info",
                                  ev("processes/" + std::to_string(pid) + "/packages.tsv")});
}

inline void set_env(BundleFacts& b, int64_t pid, std::string key, std::string value) {
  ProcessInfo& p = b.processes.by_pid[pid];
  p.pid = pid;
  p.has_environ = true;
  p.environ.emplace_back(key, value);
  if (p.evidence.empty()) p.evidence.push_back(ev("processes/" + std::to_string(pid) + "/environ"));
}

// A process using torch_npu `wheel` with CANN `cann` from /usr/local/Ascend/cann-<cann>.
inline BundleFacts job(const std::string& torch, const std::string& wheel, const std::string& cann,
                       int64_t pid = 100) {
  BundleFacts b;
  b.host = "node1";
  std::string site = "/usr/local/lib/python3.10/dist-packages";
  map_file(b, pid, "/usr/local/Ascend/cann-" + cann + "/aarch64-linux/lib64/libascendcl.so");
  map_file(b, pid, "/usr/local/Ascend/driver/lib64/driver/libascend_hal.so");
  map_file(b, pid, site + "/torch_npu/lib/libtorch_npu.so");
  package(b, pid, "torch", torch, site);
  package(b, pid, "torch_npu", wheel, site);
  return b;
}

inline std::vector<const Finding*> with_id(const std::vector<Finding>& fs, std::string_view id) {
  std::vector<const Finding*> out;
  for (const auto& f : fs)
    if (f.id == id) out.push_back(&f);
  return out;
}

inline bool has_warning_or_above(const std::vector<Finding>& fs, std::string_view prefix) {
  for (const auto& f : fs)
    if (f.id.starts_with(prefix) && f.severity >= Severity::warning) return true;
  return false;
}

}  // namespace libtest
