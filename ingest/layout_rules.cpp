// The bundle layout (bundle-layout-v1) as a table: first matching pattern wins.
#include <array>

#include "ingest/classify.h"
#include "bundle/path_glob.h"

namespace triage {
namespace {

using K = SourceKind;
struct Rule {
  std::string_view pattern;
  SourceKind kind;  // unknown = the content decides
};

constexpr std::array kLayout = {
    // Areas holding files under their original names: the content decides, except for
    // the CANN log names, which are fixed.
    Rule{"logs/index.tsv", K::logs_index_tsv},
    Rule{"logs/**/slog/dev-os-*/**", K::device_log_export},  // an msnpureport tree
    Rule{"logs/**/plog/plog-*.log", K::plog},
    Rule{"logs/**/slog/host-*/host-*.log", K::plog},
    Rule{"logs/**/device-*/device-*.log", K::device_log},
    Rule{"logs/**/device-os/device-os_*.log", K::device_log},
    // Device-side exports (msnpureport trees found among the logs): the export reader
    // picks kernel text or plog per file and keeps the RAS events.
    Rule{"logs/**/event/event_*.log", K::device_log_export},
    Rule{"logs/**/hisi_logs/**", K::device_log_export},
    Rule{"logs/**", K::unknown},
    Rule{"probes/logs/**/plog/plog-*.log", K::plog},
    Rule{"probes/logs/**/device-*/device-*.log", K::device_log},
    Rule{"probes/logs/**", K::unknown},
    Rule{"extra/**/hisi_logs/**", K::device_log_export},
    Rule{"extra/**/slog/dev-os-*/**", K::device_log_export},
    Rule{"extra/**", K::unknown},
    // Manifest and collector bookkeeping.
    Rule{"manifest.json", K::manifest_json},
    Rule{"manifest.items.jsonl", K::manifest_items_jsonl},
    Rule{"**/*.err", K::step_stderr},
    Rule{"env/collector-env", K::collector_env},
    Rule{"collector/*", K::collector_note},
    // system/
    Rule{"system/uname.txt", K::uname},
    Rule{"system/os-release", K::os_release},
    Rule{"system/cmdline", K::kernel_cmdline},
    Rule{"system/time.txt", K::time_txt},
    Rule{"system/localtime.tzif", K::localtime_tzif},
    Rule{"system/boot.txt", K::boot_txt},
    Rule{"system/kernels.tsv", K::kernels_tsv},
    Rule{"system/pci-devices.tsv", K::pci_devices_tsv},
    Rule{"system/lspci.txt", K::lspci},
    Rule{"system/devices.txt", K::devices_txt},
    Rule{"system/loadavg", K::cpu_load},
    Rule{"system/pressure-cpu", K::cpu_load},
    Rule{"system/cpu-online", K::cpu_load},
    // kernel/
    Rule{"kernel/journal-b*.jsonl", K::journal_json},
    Rule{"kernel/boots.txt", K::boots_txt},
    Rule{"kernel/boots.json", K::boots_json},
    Rule{"kernel/dmesg.txt", K::dmesg},
    Rule{"kernel/syslog/*", K::syslog},
    Rule{"kernel/tainted", K::tainted},
    Rule{"kernel/secure-boot.txt", K::secure_boot},
    // modules/
    Rule{"modules/ascend-names.txt", K::ascend_module_names},
    Rule{"modules/lsmod.txt", K::lsmod},
    Rule{"modules/proc-modules.txt", K::proc_modules},
    Rule{"modules/sysfs.tsv", K::module_sysfs_tsv},
    Rule{"modules/tree.tsv", K::module_tree_tsv},
    Rule{"modules/modinfo/*/*.txt", K::modinfo},
    Rule{"modules/modprobe-deps/*/*.txt", K::modprobe_show_depends},
    Rule{"modules/modprobe-dry-run/*.txt", K::modprobe_dry_run},
    Rule{"modules/modules.dep.txt", K::modules_dep},
    Rule{"modules/config/**", K::modprobe_config},
    Rule{"modules/initramfs-*.txt", K::initramfs_list},
    Rule{"modules/dkms-status.txt", K::dkms_status},
    Rule{"modules/dkms-tree.txt", K::dkms_tree},
    // ascend/
    Rule{"ascend/driver-version.info", K::driver_version_info},
    Rule{"ascend/firmware-version.info", K::firmware_version_info},
    Rule{"ascend/ascend_install.info", K::ascend_install_info},
    Rule{"ascend/cann/index.tsv", K::cann_index_tsv},
    Rule{"ascend/cann/*/**/*_install.info", K::cann_install_info},
    Rule{"ascend/cann/*/**/version.cfg", K::cann_version_cfg},
    Rule{"ascend/cann/*/**/version.info", K::cann_version_info},
    Rule{"ascend/paths.tsv", K::ascend_paths_tsv},
    Rule{"ascend/seclog/*", K::ascend_seclog},
    Rule{"ascend/npu-smi-info.txt", K::npu_smi_info},
    Rule{"ascend/npu-smi-map.txt", K::npu_smi_map},
    Rule{"ascend/npu-smi-health-*-*.txt", K::npu_smi_health},
    Rule{"ascend/npu-smi-usages-*-*.*.txt", K::npu_smi_usages},
    Rule{"ascend/npu-smi-common-*.*.txt", K::npu_smi_readings},
    Rule{"ascend/npu-smi-temp-*-*.*.txt", K::npu_smi_readings},
    Rule{"ascend/npu-smi-power-*-*.*.txt", K::npu_smi_readings},
    Rule{"ascend/hccn.conf", K::hccn_conf},
    Rule{"ascend/hccn-link-*.txt", K::hccn_link},
    Rule{"ascend/hccn-net_health-*.txt", K::hccn_net_health},
    Rule{"ascend/hccn-ip-*.txt", K::hccn_ip},
    Rule{"ascend/hccn-optical-*.txt", K::hccn_optical},
    Rule{"ascend/hccn-link_stat-*.txt", K::hccn_link_stat},
    Rule{"ascend/hccn-stat-*.txt", K::hccn_stat},
    Rule{"ascend/device-logs/**", K::device_log_export},
    // processes/<pid>/
    Rule{"processes/*/cmdline", K::proc_cmdline},
    Rule{"processes/*/environ", K::proc_environ},
    Rule{"processes/*/maps", K::proc_maps},
    Rule{"processes/*/status", K::proc_status},
    Rule{"processes/*/stat", K::proc_stat},
    Rule{"processes/*/schedstat", K::proc_schedstat},
    Rule{"processes/*/mountinfo", K::proc_mountinfo},
    Rule{"processes/*/cgroup", K::proc_cgroup},
    Rule{"processes/*/fd.tsv", K::proc_fd_tsv},
    Rule{"processes/*/exe.txt", K::proc_exe},
    Rule{"processes/*/root.txt", K::proc_root},
    Rule{"processes/*/tz.txt", K::proc_tz_txt},
    Rule{"processes/*/localtime.tzif", K::localtime_tzif},
    Rule{"processes/*/packages.tsv", K::packages_tsv},
    Rule{"processes/*/torch_npu-version.py", K::torch_npu_version_py},
    Rule{"processes/*/threads.*.txt", K::thread_sample},
    Rule{"processes/*/pip-list.json", K::pip_list_json},
    Rule{"processes/*/pip-show.txt", K::pip_show},
    Rule{"processes/*/rank-table.json", K::rank_table_json},
    Rule{"processes/*/py-spy-dump.txt", K::py_spy_dump},
    // python/, mounts/
    Rule{"python/packages.tsv", K::packages_tsv},
    Rule{"python/pip-list.json", K::pip_list_json},
    Rule{"python/pip-show.txt", K::pip_show},
    Rule{"mounts/mountinfo.txt", K::mountinfo},
    // probes/
    Rule{"probes/*.json", K::probe_json},
    Rule{"probes/*.stdout", K::probe_stdout},
    Rule{"probes/*.stderr", K::probe_stderr},
    Rule{"probes/*.status", K::probe_status},
    Rule{"probes/*.threads.txt", K::probe_threads},
};

}  // namespace

std::optional<LayoutMatch> match_layout(std::string_view bundle_path) {
  for (const auto& rule : kLayout)
    if (glob_match(rule.pattern, bundle_path)) return LayoutMatch{rule.kind, rule.pattern};
  return std::nullopt;
}

}  // namespace triage
