#pragma once
// Kernel module provenance and driver binding facts: what lies under /lib/modules, what is
// resident, what modprobe would load next, and whether the NPU PCI functions have a driver.
// Filled by parsers/module_*, parsers/pci_*, parsers/dkms_*, parsers/kernel_state_*.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/evidence.h"

namespace triage {

// One row of modules/tree.tsv: a module file or link under /lib/modules/<kver>/.
struct ModuleFile {
  std::string kver, module, path;
  bool is_link = false;
  std::string link_target, resolved_path;
  std::optional<bool> target_exists;
  std::string compression;  // none/xz/zst/gz ("" = unknown)
  std::optional<int64_t> size, link_mtime, target_mtime, target_ctime;
  std::string sha256, srcversion, build_id, vermagic;  // "" = unknown
  EvidenceRef evidence;
};

// One row of modules/sysfs.tsv: a loaded Ascend module as /sys/module/<name>/ shows it.
struct ResidentModule {
  std::string name, version, srcversion, build_id, initstate, taint;
  std::optional<int64_t> refcnt;
  std::vector<std::string> holders;
  EvidenceRef evidence;
};

// A line of `lsmod` or /proc/modules.
struct LoadedModule {
  std::string name;
  std::optional<int64_t> size, use_count;
  std::vector<std::string> used_by;
  std::string state;   // /proc/modules: Live, Loading, Unloading ("" for lsmod)
  std::string taint;   // /proc/modules "(OE)" without parentheses
  bool from_proc = false;
  EvidenceRef evidence;
};

// One row of system/kernels.tsv.
struct KernelDir {
  std::string kver;
  std::optional<bool> running, boot_default;
  std::optional<int64_t> initramfs_mtime, modules_dep_mtime;
  EvidenceRef evidence;
};

// modules/modinfo/<kver>/<name>.txt: `modinfo -k <kver> <name>` (full), or the one path of
// `-n`, or the one value of `-F <field>` (kept as `value`).
struct ModinfoFacts {
  std::string kver, module;  // from the entry path
  std::string form;          // "full", "filename-only", "field"
  std::string filename, srcversion, vermagic, name, value;
  std::vector<std::string> depends, aliases;
  EvidenceRef evidence;      // the filename line (or the entry)
};

// One step of `modprobe --show-depends` / `modprobe -n -v`.
struct ModprobeStep {
  bool builtin = false;
  std::string path;    // insmod PATH
  std::string params;  // after the path
  std::string name;    // builtin NAME, or the module name derived from the path
  EvidenceRef evidence;
};

// modules/modprobe-deps/<kver>/<name>.txt (show_depends) or modules/modprobe-dry-run/<name>.txt.
struct ModprobeResolution {
  std::string kver;    // "" for the dry run (the running kernel)
  std::string module;  // from the entry path
  bool dry_run = false;
  std::vector<ModprobeStep> steps;  // empty dry run = the module is loaded already
  EvidenceRef evidence;             // the entry
};

// A line of modules/modules.dep.txt: "<kver>:<path>: <dep> <dep>".
struct ModulesDepLine {
  std::string kver, path, module;
  std::vector<std::string> deps;
  EvidenceRef evidence;
};

// A line of `dkms status`: old "name, ver, kver, arch: state" or new "name/ver, kver, arch: state".
struct DkmsStatusLine {
  std::string name, version, kver, arch, state;
  bool old_format = false;
  EvidenceRef evidence;
};

// A PCI function from system/pci-devices.tsv (sysfs) or system/lspci.txt.
struct PciFunction {
  std::string address, vendor, device, class_code, driver;  // ids lower-case hex, no 0x
  std::vector<std::string> kernel_modules;  // lspci "Kernel modules:"
  std::optional<int64_t> link_width;
  bool from_lspci = false;
  EvidenceRef evidence;
};

// system/devices.txt: `ls -l` of the Ascend device nodes.
struct DeviceNode {
  std::string path;  // /dev/davinci0
  char type = '?';   // 'c', 'b', ...
  EvidenceRef evidence;
};

struct ModuleConfigLine {
  std::string file;     // the original path (/etc/modprobe.d/x.conf)
  std::string command;  // blacklist, install, options, alias, softdep, override, search, ...
  std::string args;
  EvidenceRef evidence;
};

struct ModuleFacts {
  std::vector<ModuleFile> files;
  std::vector<ResidentModule> resident;
  std::vector<LoadedModule> loaded;
  std::vector<KernelDir> kernels;
  std::vector<ModinfoFacts> modinfo;
  std::vector<ModprobeResolution> resolutions;
  std::vector<ModulesDepLine> dep_lines;
  std::vector<DkmsStatusLine> dkms;
  std::vector<std::string> dkms_tree_lines;  // kept as listed (for evidence)
  std::vector<std::pair<std::string, EvidenceRef>> initramfs;  // kver, entry line
  std::vector<ModuleConfigLine> config;
  std::vector<PciFunction> pci;
  std::optional<std::vector<DeviceNode>> device_nodes;  // nullopt = devices.txt not read
  std::optional<int64_t> tainted;
  EvidenceRef tainted_evidence;
  std::optional<bool> secure_boot;
  EvidenceRef secure_boot_evidence;
  bool have_tree = false, have_sysfs = false, have_pci_tsv = false, have_lspci = false;
  bool have_dkms_status = false;  // dkms-status.txt read (it may list nothing)

  const KernelDir* running_kernel() const {
    for (const auto& k : kernels)
      if (k.running == true) return &k;
    return nullptr;
  }
  const KernelDir* boot_kernel() const {
    for (const auto& k : kernels)
      if (k.boot_default == true) return &k;
    return nullptr;
  }
};

}  // namespace triage
