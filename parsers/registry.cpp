#include "parsers/kernel_parser.h"
#include "parsers/parser.h"
#include "parsers/plog_parser.h"
#include "parsers/manifest_parsers.h"
#include "parsers/parser.h"
#include "parsers/process_parsers.h"
#include "parsers/system_parsers.h"
#include "parsers/python_parser.h"
#include "parsers/npu_smi_parsers.h"
#include "parsers/probe_parsers.h"

namespace triage {

// One line per parsed kind. Kinds not listed are inventoried only.
ParseFn parser_for(SourceKind kind) {
  switch (kind) {
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
    case SourceKind::npu_smi_info: return parse_npu_smi_info;
    case SourceKind::npu_smi_map: return parse_npu_smi_map;
    case SourceKind::npu_smi_health: return parse_npu_smi_health;
    case SourceKind::npu_smi_usages: return parse_npu_smi_usages;
    case SourceKind::probe_json: return parse_probe_json;
    case SourceKind::probe_stdout: return parse_probe_stdout;
    case SourceKind::probe_stderr: return parse_probe_stderr;
    case SourceKind::probe_status: return parse_probe_side_file;
    case SourceKind::probe_threads: return parse_probe_side_file;
    default: return nullptr;
  }
}

}  // namespace triage
