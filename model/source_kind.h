#pragma once
// What an entry of a bundle is. Names are stable: they appear in `inventory`, in JSON and
// in samples/expected-kinds.tsv. Each reader family describes and parses its kinds in
// parsers/<family>/kinds.h (ingest/registry.h: describe_kind, parser_for).
#include <optional>
#include <string_view>

namespace triage {

enum class SourceKind {
  unknown,
  // manifest and collector bookkeeping
  manifest_json, manifest_items_jsonl, step_stderr, collector_env, collector_note,
  // system/
  uname, os_release, kernel_cmdline, time_txt, localtime_tzif, boot_txt, kernels_tsv,
  pci_devices_tsv, lspci, devices_txt,
  // kernel/
  journal_json, journal_text, boots_txt, boots_json, dmesg, dmesg_human, syslog, tainted,
  secure_boot,
  // modules/
  ascend_module_names, lsmod, proc_modules, module_sysfs_tsv, module_tree_tsv, modinfo,
  modprobe_show_depends, modprobe_dry_run, modules_dep, modprobe_config, initramfs_list,
  dkms_status, dkms_tree,
  // ascend/
  driver_version_info, firmware_version_info, ascend_install_info, cann_index_tsv,
  cann_install_info, cann_version_cfg, cann_version_info, ascend_paths_tsv, ascend_seclog,
  npu_smi_info, npu_smi_map, npu_smi_health, npu_smi_usages, hccn_conf, hccn_link,
  hccn_net_health, hccn_ip, hccn_optical, hccn_link_stat, hccn_stat,
  device_log_export,
  // processes/<pid>/
  proc_cmdline, proc_environ, proc_maps, proc_status, proc_stat, proc_mountinfo, proc_cgroup,
  proc_fd_tsv, proc_exe, proc_root, proc_tz_txt, packages_tsv, torch_npu_version_py,
  thread_sample, pip_list_json, pip_show, rank_table_json, py_spy_dump,
  // mounts/, logs/, extra/, probes/
  mountinfo, plog, device_log, logs_index_tsv, python_log, probe_json, probe_stdout,
  probe_stderr, probe_status, probe_threads,
  // anything
  symlink, mixed_text, npu_smi_topo, framework_env, pip_list_text, pip_freeze,
  // slow, not stuck: npu-smi -t common/temp/power, system CPU load files, /proc/<pid>/schedstat
  npu_smi_readings, cpu_load, proc_schedstat,
  count_  // keep last
};

std::string_view to_string(SourceKind k);
std::optional<SourceKind> parse_source_kind(std::string_view name);

}  // namespace triage
