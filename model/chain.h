#pragma once
// The execution chain of one host as a bundle shows it (issue 24): kernel, Ascend modules,
// driver / firmware / CANN versions, wheels and what each NPU process maps, sees in its
// environment and has mounted. Written as a baseline by `ascend-triage baseline` and compared
// by `ascend-triage diff` (docs/diff.md). Built by compare/, rendered by reports/.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/evidence.h"

namespace triage {

constexpr std::string_view kBaselineSchema = "ascend-triage-baseline/1";

struct ChainModuleFile {
  std::string path, type;  // type "file" or "link"
  std::string link_target, resolved_path, build_id, srcversion, vermagic;
  EvidenceRef evidence;  // the modules/tree.tsv row
};

struct ChainModule {
  std::string kver, name;
  std::vector<ChainModuleFile> files;  // by path
  std::string next_load;               // the file modprobe resolves ("" = unknown)
  EvidenceRef next_load_evidence;
  bool resident = false;
  std::string resident_build_id, resident_srcversion;
  EvidenceRef resident_evidence;  // the modules/sysfs.tsv row
};

// driver, firmware, cann:<kind> (toolkit, ops, ...): the version, where it lives, and what it
// declares compatible (the fields the version tables are judged with).
struct ChainVersion {
  std::string component, version, dir;
  std::string inner_version;  // CANN innerversion, driver Innerversion
  std::string compatible;     // driver compatible_version, firmware compatible_version_drv
  std::string compatible_fw;  // driver compatible_version_fw
  EvidenceRef evidence;
};

struct ChainWheel {
  std::string scope;  // "host" (the collector's python3) or a process key
  std::string name, version, location;
  EvidenceRef evidence;
};

struct ChainLibrary {
  std::string name;         // file name: the key across runs ("libascendcl.so")
  std::string path;         // as mapped (symlinks resolved by the kernel)
  std::string version_dir;  // the install it belongs to ("/usr/local/Ascend/cann-9.1.0")
  bool deleted = false;
  EvidenceRef evidence;
};

struct ChainMount {
  std::string mount_point, root, source, fstype;
  EvidenceRef evidence;
};

struct ChainProcess {
  std::string key;        // how runs are matched: "rank 0", else the command line (docs/diff.md)
  std::string cmdline;
  int64_t pid = 0;        // informative only: pids differ between runs
  std::vector<ChainLibrary> libraries;                        // by name
  std::vector<std::pair<std::string, std::string>> environment;  // selected names, by name
  std::vector<ChainMount> mounts;                             // by mount point
  EvidenceRef cmdline_evidence, environ_evidence;
};

struct Chain {
  std::string input, host, collected_at;  // collected_at: ISO UTC or ""
  std::string kernel_release;
  EvidenceRef kernel_evidence;
  std::vector<ChainModule> modules;     // by kernel, then name
  std::vector<ChainVersion> versions;   // by component, then dir
  std::vector<ChainWheel> wheels;       // by scope, then name
  std::vector<ChainProcess> processes;  // by key
};

// One comparable line of a chain: the diff compares these by (layer, item).
enum class ChainLayer { kernel, modules, versions, wheels, processes };
std::string_view to_string(ChainLayer l);

// A finding value that names an item: its key is `key` (or ends with it) and its text holds
// `text` ("module.drv_pcie_host" holding "build id 8f9b308b").
struct ChainMark {
  std::string key, text;
};

struct ChainItem {
  ChainLayer layer = ChainLayer::kernel;
  std::string item;   // "module drv_pcie_host resident", "process rank 0 env ASCEND_HOME_PATH"
  std::string value;  // "" = absent
  std::vector<EvidenceRef> evidence;  // where the value came from (bundle inputs only)
  // When one evidence line holds many items (an environ), a finding citing the line names
  // the item only if it also mentions `token` (the variable's name).
  std::string token;
  std::vector<ChainMark> marks;  // finding values that name the item without citing its line
};

struct ChainChange {
  ChainLayer layer = ChainLayer::kernel;
  std::string item, before, after;  // "" = absent on that side
  bool breaking = false;
  std::vector<std::string> cited_by;  // finding ids of CURRENT whose evidence names the item
  std::string why;                    // why breaking (a finding, a version table) or ""
};

struct ChainDiff {
  std::string baseline, current;    // the inputs as given
  std::string baseline_kind, current_kind;  // "bundle" or "baseline file"
  std::string baseline_host, current_host;  // the chains' hosts, "" when unknown
  std::string process_matching;     // how processes were paired, one sentence
  std::vector<ChainChange> changes; // cited first, then by layer and item
  std::vector<std::string> notes;   // e.g. "CURRENT is a baseline file: no findings to cite"

  // Both hosts are known and are not the same name (letter case aside): the changes may be
  // those between two machines, not a change on one (said first).
  bool different_hosts() const;
};

}  // namespace triage
