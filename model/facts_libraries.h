#pragma once
// Library, environment, mount and version facts (library provenance issue): what a process
// maps, the mounts it sees, the installed driver / firmware / CANN version files, the
// collector's path checks and the Python packages. Filled by the parsers in parsers/maps_*,
// mountinfo_*, version_*, cann_*, packages_*; read by the analyses in correlator/.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/evidence.h"

namespace triage {

// One file-backed region of /proc/<pid>/maps (regions of the same path are merged).
struct MappedFile {
  std::string path;      // as the kernel printed it (symlinks already resolved)
  bool deleted = false;  // " (deleted)": replaced or removed after the process mapped it
  EvidenceRef evidence;  // the first region of the path
};

// One line of a mountinfo file (escapes such as \040 decoded).
struct MountEntry {
  std::string root;         // field 4: the part of the source mounted here
  std::string mount_point;  // field 5
  std::string fstype;
  std::string source;       // the field after the fstype
  EvidenceRef evidence;
};

struct MountTable {
  bool present = false;
  std::vector<MountEntry> entries;
};

// A package row of packages.tsv, pip list JSON or pip show.
struct PackageRow {
  std::string name;        // as written
  std::string normalized;  // PEP 503
  std::string version;
  std::string location;
  std::string kind;        // dist-info, egg-info, editable (packages.tsv); pip-list, pip-show
  EvidenceRef evidence;
};

struct ProcessLibraries {
  int64_t pid = 0;
  bool has_maps = false;
  std::vector<MappedFile> files;  // in first-seen order, one per path
  uint64_t anonymous_regions = 0;
  uint64_t special_regions = 0;   // [heap], [stack], [vdso], ...
  MountTable mounts;              // processes/<pid>/mountinfo
  bool has_cgroup = false;
  std::vector<std::string> cgroup_paths;  // the path field of each cgroup line
  EvidenceRef cgroup_evidence;
  bool has_packages = false;
  std::vector<PackageRow> packages;
  // processes/<pid>/pip-list.json (`pip list --format=json`, kind "pip-list") and pip show
  // rows (kind "pip-show"): below packages.tsv in the version-matrix precedence.
  bool has_pip = false;
  std::vector<PackageRow> pip;
  std::string torch_npu_version;  // processes/<pid>/torch_npu-version.py __version__
  std::string torch_npu_git;
  EvidenceRef torch_npu_version_evidence;
};

// A key=value version file (version.info, *_install.info, ascend_install.info).
struct KeyValueLine {
  std::string key, value;
  EvidenceRef evidence;
};
struct VersionFile {
  std::string entry;      // bundle path
  std::string cann_id;    // "c1" for ascend/cann/c1/..., "" otherwise
  std::string component;  // share/info/<component>/version.info, or the install.info's kind
  std::vector<KeyValueLine> lines;
  const KeyValueLine* find(std::string_view key) const {
    for (const auto& l : lines)
      if (l.key == key) return &l;
    return nullptr;
  }
  std::string get(std::string_view key) const {
    const KeyValueLine* l = find(key);
    return l ? l->value : std::string();
  }
};

// ascend/cann/index.tsv: one row per CANN package found.
struct CannIndexRow {
  std::string id, install_dir, kind, version, resolved_dir, seen_from;
  EvidenceRef evidence;
};

// ascend/paths.tsv: whether a path exists, as seen from the host or a process.
struct PathCheck {
  std::string path;
  std::optional<bool> exists;
  std::string type;  // d, f, l, -
  std::string resolved_path;
  std::string seen_from;  // "host" or "pid:<n>"
  EvidenceRef evidence;
};

struct LibraryFacts {
  std::map<int64_t, ProcessLibraries> by_pid;
  MountTable host_mounts;  // mounts/mountinfo.txt
  std::optional<VersionFile> driver_version, firmware_version, ascend_install;
  std::vector<VersionFile> cann_files;  // ascend/cann/<id>/... version.info and *_install.info
  std::vector<CannIndexRow> cann_index;
  std::vector<PathCheck> paths;
  bool has_default_packages = false;
  std::vector<PackageRow> default_packages;  // python/packages.tsv (the collector's python3)
  // env/collector-env: the collector's own (sudo shell) environment, info only.
  bool has_collector_env = false;
  std::vector<KeyValueLine> collector_env;
  bool has_default_pip = false;
  std::vector<PackageRow> default_pip;       // python/pip-list.json, python/pip-show.txt
  // The ENV Variables of a pasted framework report (vLLM / torch_npu collect_env): the
  // reporter's shell, which the job usually shares (correlator/atb_abi reads ATB_HOME_PATH).
  std::vector<KeyValueLine> reported_env;

  ProcessLibraries& process(int64_t pid) {
    ProcessLibraries& p = by_pid[pid];
    p.pid = pid;
    return p;
  }
};

}  // namespace triage
