#pragma once
// The source kinds the collector family reads: one row each (parsers/common/kind_row.h).
// ingest/registry.cpp joins every family's rows; a new kind of this family is one row here.
#include "parsers/common/kind_row.h"
#include "parsers/collector/job_file_parsers.h"
#include "parsers/collector/manifest_parsers.h"
#include "parsers/collector/probe_parsers.h"
#include "parsers/collector/process_parsers.h"
#include "parsers/collector/system_parsers.h"
#include "parsers/collector/version_parsers.h"

namespace triage {

inline constexpr KindRow kCollectorKinds[] = {
    {SourceKind::manifest_json, parse_manifest_json, "collector manifest (manifest.json)", {}},
    {SourceKind::manifest_items_jsonl, parse_manifest_items_jsonl, "collector step log (manifest.items.jsonl)", {}},
    {SourceKind::step_stderr, nullptr, "stderr of a collection step (<path>.err)",
     "the manifest item already carries the step's error"},
    {SourceKind::collector_env, parse_collector_env, "the collector's own filtered environment", {}},
    {SourceKind::collector_note, nullptr, "the collector's own notes on its run (collector/: free space, tools found, timeout check)",
     "free text for a human reader of the bundle"},
    {SourceKind::uname, parse_uname, "uname -a", {}},
    {SourceKind::os_release, parse_os_release, "/etc/os-release", {}},
    {SourceKind::kernel_cmdline, parse_kernel_cmdline, "/proc/cmdline", {}},
    {SourceKind::time_txt, parse_time_txt, "collection time and zone (system/time.txt)", {}},
    {SourceKind::localtime_tzif, parse_localtime_tzif, "copy of /etc/localtime (TZif)", {}},
    {SourceKind::boot_txt, parse_boot_txt, "boot id, btime, uptime (system/boot.txt)", {}},
    {SourceKind::ascend_module_names, nullptr, "Ascend module name patterns used by the collector",
     "the collector's own input patterns, not evidence"},
    {SourceKind::driver_version_info, parse_driver_version_info, "driver version.info", {}},
    {SourceKind::firmware_version_info, parse_firmware_version_info, "firmware version.info", {}},
    {SourceKind::ascend_install_info, parse_ascend_install_info, "/etc/ascend_install.info", {}},
    {SourceKind::cann_index_tsv, parse_cann_index_tsv, "CANN installs found (ascend/cann/index.tsv)", {}},
    {SourceKind::cann_install_info, parse_cann_version_file, "CANN *_install.info", {}},
    {SourceKind::cann_version_cfg, parse_cann_version_file, "CANN version.cfg", {}},
    {SourceKind::cann_version_info, parse_cann_version_file, "CANN component version.info", {}},
    {SourceKind::ascend_paths_tsv, parse_cann_paths_tsv, "paths named by Ascend variables (ascend/paths.tsv)", {}},
    {SourceKind::proc_cmdline, parse_proc_cmdline, "/proc/<pid>/cmdline", {}},
    {SourceKind::proc_environ, parse_proc_environ, "/proc/<pid>/environ", {}},
    {SourceKind::proc_maps, parse_proc_maps, "/proc/<pid>/maps", {}},
    {SourceKind::proc_status, parse_proc_status, "/proc/<pid>/status (its context switches)", {}},
    {SourceKind::proc_schedstat, parse_proc_schedstat, "/proc/<pid>/schedstat: time on CPU and waiting to run", {}},
    {SourceKind::cpu_load, parse_cpu_load, "host CPU load: /proc/loadavg, /proc/pressure/cpu, online CPUs", {}},
    {SourceKind::proc_stat, parse_proc_stat, "/proc/<pid>/stat", {}},
    {SourceKind::proc_mountinfo, parse_proc_mountinfo, "/proc/<pid>/mountinfo", {}},
    {SourceKind::proc_cgroup, parse_proc_cgroup, "/proc/<pid>/cgroup", {}},
    {SourceKind::proc_fd_tsv, parse_proc_fd_tsv, "open files of a process (fd.tsv)", {}},
    {SourceKind::proc_exe, nullptr, "readlink /proc/<pid>/exe",
     "no analysis reads the executable link yet"},
    {SourceKind::proc_root, nullptr, "readlink /proc/<pid>/root",
     "no analysis reads the root link yet"},
    {SourceKind::proc_tz_txt, parse_proc_tz_txt, "a process's time zone (tz.txt)", {}},
    {SourceKind::packages_tsv, parse_packages_tsv, "Python packages from metadata files", {}},
    {SourceKind::torch_npu_version_py, parse_torch_npu_version_py, "torch_npu/version.py", {}},
    {SourceKind::thread_sample, nullptr, "thread states sample (threads.<n>.txt)",
     "no analysis reads thread states yet"},
    {SourceKind::pip_list_json, parse_pip_list_json, "pip list --format=json", {}},
    {SourceKind::pip_show, parse_pip_show, "pip show", {}},
    {SourceKind::rank_table_json, parse_rank_table_json, "the rank table RANK_TABLE_FILE names", {}},
    {SourceKind::py_spy_dump, parse_py_spy_dump, "py-spy dump of a process", {}},
    {SourceKind::mountinfo, parse_host_mountinfo, "host mountinfo", {}},
    {SourceKind::logs_index_tsv, nullptr, "index of collected logs (logs/index.tsv)",
     "an index of logs/; the logs themselves are parsed"},
    {SourceKind::probe_json, parse_probe_json, "device probe result", {}},
    {SourceKind::probe_stdout, parse_probe_stdout, "device probe stdout", {}},
    {SourceKind::probe_stderr, parse_probe_stderr, "device probe stderr", {}},
    {SourceKind::probe_status, parse_probe_side_file, "state of a timed-out probe process", {}},
    {SourceKind::probe_threads, parse_probe_side_file, "threads of a timed-out probe process", {}},
};

// Finishes the family's facts once the bundle is read:
// system (host name and zone first: the manifest's findings carry it), manifest, processes.
void finalize_collector_facts(BundleFacts& facts, const AnalyzeOptions& options);

inline constexpr ParserFamily kCollectorFamily{"collector", kCollectorKinds, finalize_collector_facts};

}  // namespace triage
