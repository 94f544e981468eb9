#include "model/source_kind.h"

#include <array>

namespace triage {
namespace {

struct KindInfo {
  SourceKind kind;
  std::string_view name;
  std::string_view description;
};

constexpr std::array kKinds = {
    KindInfo{SourceKind::unknown, "unknown", "not recognised"},
    KindInfo{SourceKind::manifest_json, "manifest_json", "collector manifest (manifest.json)"},
    KindInfo{SourceKind::manifest_items_jsonl, "manifest_items_jsonl", "collector step log (manifest.items.jsonl)"},
    KindInfo{SourceKind::step_stderr, "step_stderr", "stderr of a collection step (<path>.err)"},
    KindInfo{SourceKind::collector_env, "collector_env", "the collector's own filtered environment"},
    KindInfo{SourceKind::collector_note, "collector_note", "the collector's own notes on its run (collector/: free space, tools found, timeout check)"},
    KindInfo{SourceKind::uname, "uname", "uname -a"},
    KindInfo{SourceKind::os_release, "os_release", "/etc/os-release"},
    KindInfo{SourceKind::kernel_cmdline, "kernel_cmdline", "/proc/cmdline"},
    KindInfo{SourceKind::time_txt, "time_txt", "collection time and zone (system/time.txt)"},
    KindInfo{SourceKind::localtime_tzif, "localtime_tzif", "copy of /etc/localtime (TZif)"},
    KindInfo{SourceKind::boot_txt, "boot_txt", "boot id, btime, uptime (system/boot.txt)"},
    KindInfo{SourceKind::kernels_tsv, "kernels_tsv", "installed kernels (system/kernels.tsv)"},
    KindInfo{SourceKind::pci_devices_tsv, "pci_devices_tsv", "PCI functions from sysfs"},
    KindInfo{SourceKind::lspci, "lspci", "lspci -D -nn -k"},
    KindInfo{SourceKind::devices_txt, "devices_txt", "ls -l of Ascend device nodes"},
    KindInfo{SourceKind::journal_json, "journal_json", "journalctl -o json kernel messages"},
    KindInfo{SourceKind::journal_text, "journal_text", "journalctl text output"},
    KindInfo{SourceKind::boots_txt, "boots_txt", "journalctl --list-boots"},
    KindInfo{SourceKind::boots_json, "boots_json", "journalctl --list-boots -o json"},
    KindInfo{SourceKind::dmesg, "dmesg", "raw dmesg (seconds since boot)"},
    KindInfo{SourceKind::dmesg_human, "dmesg_human", "dmesg -T (local wall-clock times)"},
    KindInfo{SourceKind::syslog, "syslog", "syslog file (messages, kern.log, syslog)"},
    KindInfo{SourceKind::tainted, "tainted", "/proc/sys/kernel/tainted"},
    KindInfo{SourceKind::secure_boot, "secure_boot", "mokutil --sb-state"},
    KindInfo{SourceKind::ascend_module_names, "ascend_module_names", "Ascend module name patterns used by the collector"},
    KindInfo{SourceKind::lsmod, "lsmod", "lsmod"},
    KindInfo{SourceKind::proc_modules, "proc_modules", "/proc/modules"},
    KindInfo{SourceKind::module_sysfs_tsv, "module_sysfs_tsv", "loaded Ascend modules from /sys/module"},
    KindInfo{SourceKind::module_tree_tsv, "module_tree_tsv", "Ascend module files and links under /lib/modules"},
    KindInfo{SourceKind::modinfo, "modinfo", "modinfo output"},
    KindInfo{SourceKind::modprobe_show_depends, "modprobe_show_depends", "modprobe --show-depends"},
    KindInfo{SourceKind::modprobe_dry_run, "modprobe_dry_run", "modprobe -n -v"},
    KindInfo{SourceKind::modules_dep, "modules_dep", "modules.dep lines naming Ascend modules"},
    KindInfo{SourceKind::modprobe_config, "modprobe_config", "modprobe.d / depmod.d / modules-load.d file"},
    KindInfo{SourceKind::initramfs_list, "initramfs_list", "Ascend entries of an initramfs listing"},
    KindInfo{SourceKind::dkms_status, "dkms_status", "dkms status"},
    KindInfo{SourceKind::dkms_tree, "dkms_tree", "listing of the DKMS tree"},
    KindInfo{SourceKind::driver_version_info, "driver_version_info", "driver version.info"},
    KindInfo{SourceKind::firmware_version_info, "firmware_version_info", "firmware version.info"},
    KindInfo{SourceKind::ascend_install_info, "ascend_install_info", "/etc/ascend_install.info"},
    KindInfo{SourceKind::cann_index_tsv, "cann_index_tsv", "CANN installs found (ascend/cann/index.tsv)"},
    KindInfo{SourceKind::cann_install_info, "cann_install_info", "CANN *_install.info"},
    KindInfo{SourceKind::cann_version_cfg, "cann_version_cfg", "CANN version.cfg"},
    KindInfo{SourceKind::cann_version_info, "cann_version_info", "CANN component version.info"},
    KindInfo{SourceKind::ascend_paths_tsv, "ascend_paths_tsv", "paths named by Ascend variables (ascend/paths.tsv)"},
    KindInfo{SourceKind::ascend_seclog, "ascend_seclog", "Ascend install / operation log"},
    KindInfo{SourceKind::npu_smi_info, "npu_smi_info", "npu-smi info"},
    KindInfo{SourceKind::npu_smi_map, "npu_smi_map", "npu-smi info -m"},
    KindInfo{SourceKind::npu_smi_health, "npu_smi_health", "npu-smi info -t health"},
    KindInfo{SourceKind::npu_smi_usages, "npu_smi_usages", "npu-smi info -t usages sample"},
    KindInfo{SourceKind::hccn_conf, "hccn_conf", "/etc/hccn.conf"},
    KindInfo{SourceKind::hccn_link, "hccn_link", "hccn_tool -link -g"},
    KindInfo{SourceKind::hccn_net_health, "hccn_net_health", "hccn_tool -net_health -g"},
    KindInfo{SourceKind::hccn_ip, "hccn_ip", "hccn_tool -ip -g"},
    KindInfo{SourceKind::hccn_optical, "hccn_optical", "hccn_tool -optical -g"},
    KindInfo{SourceKind::hccn_link_stat, "hccn_link_stat", "hccn_tool -link_stat -g"},
    KindInfo{SourceKind::hccn_stat, "hccn_stat", "hccn_tool -stat -g"},
    KindInfo{SourceKind::device_log_export, "device_log_export", "msnpureport device-side export file"},
    KindInfo{SourceKind::proc_cmdline, "proc_cmdline", "/proc/<pid>/cmdline"},
    KindInfo{SourceKind::proc_environ, "proc_environ", "/proc/<pid>/environ"},
    KindInfo{SourceKind::proc_maps, "proc_maps", "/proc/<pid>/maps"},
    KindInfo{SourceKind::proc_status, "proc_status", "/proc/<pid>/status"},
    KindInfo{SourceKind::proc_stat, "proc_stat", "/proc/<pid>/stat"},
    KindInfo{SourceKind::proc_mountinfo, "proc_mountinfo", "/proc/<pid>/mountinfo"},
    KindInfo{SourceKind::proc_cgroup, "proc_cgroup", "/proc/<pid>/cgroup"},
    KindInfo{SourceKind::proc_fd_tsv, "proc_fd_tsv", "open files of a process (fd.tsv)"},
    KindInfo{SourceKind::proc_exe, "proc_exe", "readlink /proc/<pid>/exe"},
    KindInfo{SourceKind::proc_root, "proc_root", "readlink /proc/<pid>/root"},
    KindInfo{SourceKind::proc_tz_txt, "proc_tz_txt", "a process's time zone (tz.txt)"},
    KindInfo{SourceKind::packages_tsv, "packages_tsv", "Python packages from metadata files"},
    KindInfo{SourceKind::torch_npu_version_py, "torch_npu_version_py", "torch_npu/version.py"},
    KindInfo{SourceKind::thread_sample, "thread_sample", "thread states sample (threads.<n>.txt)"},
    KindInfo{SourceKind::pip_list_json, "pip_list_json", "pip list --format=json"},
    KindInfo{SourceKind::pip_show, "pip_show", "pip show"},
    KindInfo{SourceKind::rank_table_json, "rank_table_json", "the rank table RANK_TABLE_FILE names"},
    KindInfo{SourceKind::py_spy_dump, "py_spy_dump", "py-spy dump of a process"},
    KindInfo{SourceKind::mountinfo, "mountinfo", "host mountinfo"},
    KindInfo{SourceKind::plog, "plog", "CANN host application log (plog)"},
    KindInfo{SourceKind::device_log, "device_log", "CANN device-side log (device-<pid>_*.log, device-os)"},
    KindInfo{SourceKind::logs_index_tsv, "logs_index_tsv", "index of collected logs (logs/index.tsv)"},
    KindInfo{SourceKind::python_log, "python_log", "job output / stderr with Python tracebacks"},
    KindInfo{SourceKind::probe_json, "probe_json", "device probe result"},
    KindInfo{SourceKind::probe_stdout, "probe_stdout", "device probe stdout"},
    KindInfo{SourceKind::probe_stderr, "probe_stderr", "device probe stderr"},
    KindInfo{SourceKind::probe_status, "probe_status", "state of a timed-out probe process"},
    KindInfo{SourceKind::probe_threads, "probe_threads", "threads of a timed-out probe process"},
    KindInfo{SourceKind::symlink, "symlink", "a symbolic link, recorded as data"},
    KindInfo{SourceKind::mixed_text, "mixed_text", "a paste of several kinds of text (prompts, job output, kernel log, tables): split into segments, each parsed as its kind"},
    KindInfo{SourceKind::npu_smi_topo, "npu_smi_topo", "npu-smi info -t topo: links between NPUs (HCCS, PIX, SYS) and CPU affinity"},
    KindInfo{SourceKind::framework_env, "framework_env", "an environment report a framework prints (vLLM/torch_npu collect_env, MindSpore run_check): package versions"},
    KindInfo{SourceKind::pip_list_text, "pip_list_text", "pip list (columns, as printed or filtered with grep): package versions"},
};
static_assert(kKinds.size() == static_cast<size_t>(SourceKind::count_));

constexpr bool table_in_enum_order() {
  for (size_t i = 0; i < kKinds.size(); ++i)
    if (static_cast<size_t>(kKinds[i].kind) != i) return false;
  return true;
}
static_assert(table_in_enum_order());

}  // namespace

std::string_view to_string(SourceKind k) { return kKinds[static_cast<size_t>(k)].name; }
std::string_view describe(SourceKind k) { return kKinds[static_cast<size_t>(k)].description; }

std::optional<SourceKind> parse_source_kind(std::string_view name) {
  for (const auto& info : kKinds)
    if (info.name == name) return info.kind;
  return std::nullopt;
}

}  // namespace triage
