#include "ingest/registry.h"

#include "parsers/collector/job_file_parsers.h"
#include "parsers/collector/manifest_parsers.h"
#include "parsers/collector/probe_parsers.h"
#include "parsers/collector/process_parsers.h"
#include "parsers/collector/system_parsers.h"
#include "parsers/collector/version_parsers.h"
#include "parsers/job/error_lines.h"
#include "parsers/job/python_parser.h"
#include "parsers/kernel/boots_parser.h"
#include "parsers/kernel/error_lines.h"
#include "parsers/kernel/kernel_parser.h"
#include "parsers/kernel/kernel_state_parsers.h"
#include "parsers/plog/device_export_parser.h"
#include "parsers/plog/error_lines.h"
#include "parsers/plog/plog_parser.h"
#include "parsers/plog/seclog_parser.h"
#include "parsers/tools/hccn_parsers.h"
#include "parsers/tools/module_parsers.h"
#include "ingest/mixed_text.h"
#include "parsers/job/framework_env_parser.h"
#include "parsers/tools/npu_smi_parsers.h"
#include "parsers/tools/npu_smi_topo_parser.h"
#include "parsers/tools/pip_list_text_parser.h"

namespace triage {

// Every kind once: a parser, or nullptr with the reason it is inventoried only. No
// `default:`, and triage_core builds with -Werror=switch, so a new SourceKind does not
// compile until it is listed here.
ParseFn parser_for(SourceKind kind) {
  switch (kind) {
    // Parsed:
    case SourceKind::plog: return parse_plog;
    case SourceKind::device_log: return parse_plog;
    case SourceKind::device_log_export: return parse_device_export;
    case SourceKind::journal_json: return parse_journal_json;
    case SourceKind::journal_text: return parse_journal_text;
    case SourceKind::dmesg: return parse_dmesg;
    case SourceKind::dmesg_human: return parse_dmesg_human;
    case SourceKind::syslog: return parse_syslog;
    case SourceKind::manifest_json: return parse_manifest_json;
    case SourceKind::manifest_items_jsonl: return parse_manifest_items_jsonl;
    case SourceKind::uname: return parse_uname;
    case SourceKind::os_release: return parse_os_release;
    case SourceKind::kernel_cmdline: return parse_kernel_cmdline;
    case SourceKind::time_txt: return parse_time_txt;
    case SourceKind::localtime_tzif: return parse_localtime_tzif;
    case SourceKind::boot_txt: return parse_boot_txt;
    case SourceKind::proc_environ: return parse_proc_environ;
    case SourceKind::proc_cmdline: return parse_proc_cmdline;
    case SourceKind::proc_tz_txt: return parse_proc_tz_txt;
    case SourceKind::proc_stat: return parse_proc_stat;
    case SourceKind::proc_fd_tsv: return parse_proc_fd_tsv;
    case SourceKind::python_log: return parse_python_log;
    case SourceKind::proc_maps: return parse_proc_maps;
    case SourceKind::proc_mountinfo: return parse_proc_mountinfo;
    case SourceKind::mountinfo: return parse_host_mountinfo;
    case SourceKind::proc_cgroup: return parse_proc_cgroup;
    case SourceKind::driver_version_info: return parse_driver_version_info;
    case SourceKind::firmware_version_info: return parse_firmware_version_info;
    case SourceKind::ascend_install_info: return parse_ascend_install_info;
    case SourceKind::cann_version_info: return parse_cann_version_file;
    case SourceKind::cann_install_info: return parse_cann_version_file;
    case SourceKind::cann_version_cfg: return parse_cann_version_file;
    case SourceKind::cann_index_tsv: return parse_cann_index_tsv;
    case SourceKind::ascend_paths_tsv: return parse_cann_paths_tsv;
    case SourceKind::packages_tsv: return parse_packages_tsv;
    case SourceKind::torch_npu_version_py: return parse_torch_npu_version_py;
    case SourceKind::pip_show: return parse_pip_show;
    case SourceKind::pip_list_json: return parse_pip_list_json;
    case SourceKind::collector_env: return parse_collector_env;
    case SourceKind::npu_smi_info: return parse_npu_smi_info;
    case SourceKind::npu_smi_map: return parse_npu_smi_map;
    case SourceKind::npu_smi_health: return parse_npu_smi_health;
    case SourceKind::npu_smi_usages: return parse_npu_smi_usages;
    case SourceKind::probe_json: return parse_probe_json;
    case SourceKind::probe_stdout: return parse_probe_stdout;
    case SourceKind::probe_stderr: return parse_probe_stderr;
    case SourceKind::probe_status: return parse_probe_side_file;
    case SourceKind::probe_threads: return parse_probe_side_file;
    case SourceKind::module_sysfs_tsv: return parse_module_sysfs_tsv;
    case SourceKind::module_tree_tsv: return parse_module_tree_tsv;
    case SourceKind::kernels_tsv: return parse_kernels_tsv;
    case SourceKind::pci_devices_tsv: return parse_pci_devices_tsv;
    case SourceKind::lspci: return parse_lspci;
    case SourceKind::devices_txt: return parse_devices_txt;
    case SourceKind::tainted: return parse_tainted;
    case SourceKind::secure_boot: return parse_secure_boot;
    case SourceKind::lsmod: return parse_lsmod;
    case SourceKind::proc_modules: return parse_proc_modules;
    case SourceKind::modinfo: return parse_modinfo;
    case SourceKind::modprobe_show_depends: return parse_modprobe_show_depends;
    case SourceKind::modprobe_dry_run: return parse_modprobe_dry_run;
    case SourceKind::modules_dep: return parse_modules_dep;
    case SourceKind::modprobe_config: return parse_modprobe_config;
    case SourceKind::initramfs_list: return parse_initramfs_list;
    case SourceKind::dkms_status: return parse_dkms_status;
    case SourceKind::dkms_tree: return parse_dkms_tree;
    case SourceKind::ascend_seclog: return parse_ascend_seclog;
    case SourceKind::boots_txt: return parse_boots_txt;
    case SourceKind::mixed_text: return parse_mixed_text;
    case SourceKind::npu_smi_topo: return parse_npu_smi_topo;
    case SourceKind::framework_env: return parse_framework_env;
    case SourceKind::pip_list_text: return parse_pip_list_text;
    // Inventoried only, on purpose:
    case SourceKind::unknown: return nullptr;  // not recognised: listed so the report names it
    case SourceKind::symlink: return nullptr;  // recorded as data, never followed
    case SourceKind::step_stderr: return nullptr;  // the manifest item already carries the step's error
    case SourceKind::collector_note: return nullptr;  // free text for a human reader of the bundle
    case SourceKind::boots_json: return nullptr;  // the same boots as boots.txt, which is parsed
    case SourceKind::ascend_module_names: return nullptr;  // the collector's own input patterns, not evidence
    case SourceKind::logs_index_tsv: return nullptr;  // an index of logs/; the logs themselves are parsed
    case SourceKind::hccn_conf: return nullptr;  // no analysis reads the NPU network configuration yet
    case SourceKind::hccn_link: return parse_hccn_link;
    case SourceKind::hccn_net_health: return parse_hccn_net_health;
    case SourceKind::hccn_ip: return parse_hccn_ip;
    case SourceKind::hccn_optical: return parse_hccn_optical;
    case SourceKind::hccn_link_stat: return parse_hccn_link_stat;
    case SourceKind::hccn_stat: return parse_hccn_stat;
    case SourceKind::rank_table_json: return parse_rank_table_json;
    case SourceKind::py_spy_dump: return parse_py_spy_dump;
    case SourceKind::proc_status: return nullptr;  // proc_stat already gives state and start time
    case SourceKind::proc_exe: return nullptr;  // no analysis reads the executable link yet
    case SourceKind::proc_root: return nullptr;  // no analysis reads the root link yet
    case SourceKind::thread_sample: return nullptr;  // no analysis reads thread states yet
    case SourceKind::count_: return nullptr;  // not a kind: the number of kinds
  }
  return nullptr;  // unreachable for a valid enum value
}

std::span<const ErrorLineReader> error_line_readers() {
  static constexpr ErrorLineReader kReaders[] = {
      {"plog", true, plog_coded_error_lines},
      {"plog", false, plog_error_rows},
      {"kernel", false, kernel_error_lines},
      {"job", false, job_error_lines},
  };
  return kReaders;
}

}  // namespace triage
