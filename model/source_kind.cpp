#include "model/source_kind.h"

#include <array>

namespace triage {
namespace {

struct KindInfo {
  SourceKind kind;
  std::string_view name;
};

constexpr std::array kKinds = {
    KindInfo{SourceKind::unknown, "unknown"},
    KindInfo{SourceKind::manifest_json, "manifest_json"},
    KindInfo{SourceKind::manifest_items_jsonl, "manifest_items_jsonl"},
    KindInfo{SourceKind::step_stderr, "step_stderr"},
    KindInfo{SourceKind::collector_env, "collector_env"},
    KindInfo{SourceKind::collector_note, "collector_note"},
    KindInfo{SourceKind::uname, "uname"},
    KindInfo{SourceKind::os_release, "os_release"},
    KindInfo{SourceKind::kernel_cmdline, "kernel_cmdline"},
    KindInfo{SourceKind::time_txt, "time_txt"},
    KindInfo{SourceKind::localtime_tzif, "localtime_tzif"},
    KindInfo{SourceKind::boot_txt, "boot_txt"},
    KindInfo{SourceKind::kernels_tsv, "kernels_tsv"},
    KindInfo{SourceKind::pci_devices_tsv, "pci_devices_tsv"},
    KindInfo{SourceKind::lspci, "lspci"},
    KindInfo{SourceKind::devices_txt, "devices_txt"},
    KindInfo{SourceKind::journal_json, "journal_json"},
    KindInfo{SourceKind::journal_text, "journal_text"},
    KindInfo{SourceKind::boots_txt, "boots_txt"},
    KindInfo{SourceKind::boots_json, "boots_json"},
    KindInfo{SourceKind::dmesg, "dmesg"},
    KindInfo{SourceKind::dmesg_human, "dmesg_human"},
    KindInfo{SourceKind::syslog, "syslog"},
    KindInfo{SourceKind::tainted, "tainted"},
    KindInfo{SourceKind::secure_boot, "secure_boot"},
    KindInfo{SourceKind::ascend_module_names, "ascend_module_names"},
    KindInfo{SourceKind::lsmod, "lsmod"},
    KindInfo{SourceKind::proc_modules, "proc_modules"},
    KindInfo{SourceKind::module_sysfs_tsv, "module_sysfs_tsv"},
    KindInfo{SourceKind::module_tree_tsv, "module_tree_tsv"},
    KindInfo{SourceKind::modinfo, "modinfo"},
    KindInfo{SourceKind::modprobe_show_depends, "modprobe_show_depends"},
    KindInfo{SourceKind::modprobe_dry_run, "modprobe_dry_run"},
    KindInfo{SourceKind::modules_dep, "modules_dep"},
    KindInfo{SourceKind::modprobe_config, "modprobe_config"},
    KindInfo{SourceKind::initramfs_list, "initramfs_list"},
    KindInfo{SourceKind::dkms_status, "dkms_status"},
    KindInfo{SourceKind::dkms_tree, "dkms_tree"},
    KindInfo{SourceKind::driver_version_info, "driver_version_info"},
    KindInfo{SourceKind::firmware_version_info, "firmware_version_info"},
    KindInfo{SourceKind::ascend_install_info, "ascend_install_info"},
    KindInfo{SourceKind::cann_index_tsv, "cann_index_tsv"},
    KindInfo{SourceKind::cann_install_info, "cann_install_info"},
    KindInfo{SourceKind::cann_version_cfg, "cann_version_cfg"},
    KindInfo{SourceKind::cann_version_info, "cann_version_info"},
    KindInfo{SourceKind::ascend_paths_tsv, "ascend_paths_tsv"},
    KindInfo{SourceKind::ascend_seclog, "ascend_seclog"},
    KindInfo{SourceKind::npu_smi_info, "npu_smi_info"},
    KindInfo{SourceKind::npu_smi_map, "npu_smi_map"},
    KindInfo{SourceKind::npu_smi_health, "npu_smi_health"},
    KindInfo{SourceKind::npu_smi_usages, "npu_smi_usages"},
    KindInfo{SourceKind::hccn_conf, "hccn_conf"},
    KindInfo{SourceKind::hccn_link, "hccn_link"},
    KindInfo{SourceKind::hccn_net_health, "hccn_net_health"},
    KindInfo{SourceKind::hccn_ip, "hccn_ip"},
    KindInfo{SourceKind::hccn_optical, "hccn_optical"},
    KindInfo{SourceKind::hccn_link_stat, "hccn_link_stat"},
    KindInfo{SourceKind::hccn_stat, "hccn_stat"},
    KindInfo{SourceKind::device_log_export, "device_log_export"},
    KindInfo{SourceKind::proc_cmdline, "proc_cmdline"},
    KindInfo{SourceKind::proc_environ, "proc_environ"},
    KindInfo{SourceKind::proc_maps, "proc_maps"},
    KindInfo{SourceKind::proc_status, "proc_status"},
    KindInfo{SourceKind::proc_stat, "proc_stat"},
    KindInfo{SourceKind::proc_mountinfo, "proc_mountinfo"},
    KindInfo{SourceKind::proc_cgroup, "proc_cgroup"},
    KindInfo{SourceKind::proc_fd_tsv, "proc_fd_tsv"},
    KindInfo{SourceKind::proc_exe, "proc_exe"},
    KindInfo{SourceKind::proc_root, "proc_root"},
    KindInfo{SourceKind::proc_tz_txt, "proc_tz_txt"},
    KindInfo{SourceKind::packages_tsv, "packages_tsv"},
    KindInfo{SourceKind::torch_npu_version_py, "torch_npu_version_py"},
    KindInfo{SourceKind::thread_sample, "thread_sample"},
    KindInfo{SourceKind::pip_list_json, "pip_list_json"},
    KindInfo{SourceKind::pip_show, "pip_show"},
    KindInfo{SourceKind::rank_table_json, "rank_table_json"},
    KindInfo{SourceKind::py_spy_dump, "py_spy_dump"},
    KindInfo{SourceKind::mountinfo, "mountinfo"},
    KindInfo{SourceKind::plog, "plog"},
    KindInfo{SourceKind::device_log, "device_log"},
    KindInfo{SourceKind::logs_index_tsv, "logs_index_tsv"},
    KindInfo{SourceKind::python_log, "python_log"},
    KindInfo{SourceKind::probe_json, "probe_json"},
    KindInfo{SourceKind::probe_stdout, "probe_stdout"},
    KindInfo{SourceKind::probe_stderr, "probe_stderr"},
    KindInfo{SourceKind::probe_status, "probe_status"},
    KindInfo{SourceKind::probe_threads, "probe_threads"},
    KindInfo{SourceKind::symlink, "symlink"},
    KindInfo{SourceKind::mixed_text, "mixed_text"},
    KindInfo{SourceKind::npu_smi_topo, "npu_smi_topo"},
    KindInfo{SourceKind::framework_env, "framework_env"},
    KindInfo{SourceKind::pip_list_text, "pip_list_text"},
    KindInfo{SourceKind::pip_freeze, "pip_freeze"},
    KindInfo{SourceKind::npu_smi_readings, "npu_smi_readings"},
    KindInfo{SourceKind::cpu_load, "cpu_load"},
    KindInfo{SourceKind::proc_schedstat, "proc_schedstat"},
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

std::optional<SourceKind> parse_source_kind(std::string_view name) {
  for (const auto& info : kKinds)
    if (info.name == name) return info.kind;
  return std::nullopt;
}

}  // namespace triage
