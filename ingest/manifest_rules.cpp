// What a manifest item says an entry is: the command that wrote it (exec argv) or the host
// path it was copied from (source). Used for entries outside the layout, and to report
// where the manifest and the layout path disagree.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "ingest/classify.h"
#include "ingest/manifest_index.h"
#include "bundle/member_name.h"
#include "bundle/path_glob.h"

namespace triage {
namespace {

using K = SourceKind;
struct SourceRule {
  std::string_view pattern;  // host path without the leading '/'
  SourceKind kind;
};

constexpr std::array kSourcePaths = {
    SourceRule{"proc/cmdline", K::kernel_cmdline},
    SourceRule{"etc/os-release", K::os_release},
    SourceRule{"usr/lib/os-release", K::os_release},
    SourceRule{"etc/localtime", K::localtime_tzif},
    SourceRule{"proc/sys/kernel/tainted", K::tainted},
    SourceRule{"proc/modules", K::proc_modules},
    SourceRule{"proc/self/mountinfo", K::mountinfo},
    SourceRule{"proc/*/mountinfo", K::proc_mountinfo},
    SourceRule{"proc/*/cmdline", K::proc_cmdline},
    SourceRule{"proc/*/environ", K::proc_environ},
    SourceRule{"proc/*/maps", K::proc_maps},
    SourceRule{"proc/*/status", K::proc_status},
    SourceRule{"proc/*/stat", K::proc_stat},
    SourceRule{"proc/*/schedstat", K::proc_schedstat},
    SourceRule{"proc/loadavg", K::cpu_load},
    SourceRule{"proc/pressure/cpu", K::cpu_load},
    SourceRule{"sys/devices/system/cpu/online", K::cpu_load},
    SourceRule{"proc/*/cgroup", K::proc_cgroup},
    SourceRule{"var/log/messages*", K::syslog},
    SourceRule{"var/log/syslog*", K::syslog},
    SourceRule{"var/log/kern.log*", K::syslog},
    SourceRule{"etc/ascend_install.info", K::ascend_install_info},
    SourceRule{"etc/hccn.conf", K::hccn_conf},
    SourceRule{"var/log/ascend_seclog/*", K::ascend_seclog},
    SourceRule{"etc/modprobe.d/**", K::modprobe_config},
    SourceRule{"usr/lib/modprobe.d/**", K::modprobe_config},
    SourceRule{"run/modprobe.d/**", K::modprobe_config},
    SourceRule{"etc/depmod.d/**", K::modprobe_config},
    SourceRule{"lib/depmod.d/**", K::modprobe_config},
    SourceRule{"etc/modules-load.d/**", K::modprobe_config},
    SourceRule{"**/driver/version.info", K::driver_version_info},
    SourceRule{"**/firmware/version.info", K::firmware_version_info},
    SourceRule{"**/version.cfg", K::cann_version_cfg},
    SourceRule{"**/*_install.info", K::cann_install_info},
    SourceRule{"**/version.info", K::cann_version_info},
    SourceRule{"**/torch_npu/version.py", K::torch_npu_version_py},
    SourceRule{"**/plog/plog-*.log", K::plog},
    SourceRule{"**/slog/host-*/host-*.log", K::plog},
    SourceRule{"**/device-*/device-*.log", K::device_log},
    SourceRule{"**/device-os/device-os_*.log", K::device_log},
};

bool has(const std::vector<std::string>& argv, std::string_view word) {
  return std::find(argv.begin(), argv.end(), word) != argv.end();
}

bool wants_json(const std::vector<std::string>& argv) {
  for (size_t i = 0; i < argv.size(); ++i) {
    const auto& a = argv[i];
    if (a == "-ojson" || a == "--output=json" || a == "--format=json") return true;
    if ((a == "-o" || a == "--output" || a == "--format") && i + 1 < argv.size() &&
        argv[i + 1] == "json")
      return true;
  }
  return false;
}

// The program an argv runs, skipping wrappers (timeout 10 cmd, env A=B cmd, sudo cmd ...).
size_t program_index(const std::vector<std::string>& argv) {
  size_t i = 0;
  while (i < argv.size()) {
    std::string_view name = base_name(argv[i]);
    if (name == "timeout") {
      ++i;
      while (i < argv.size() && !argv[i].empty() && argv[i][0] == '-') {
        bool takes_value = argv[i] == "-k" || argv[i] == "-s" || argv[i] == "--kill-after" ||
                           argv[i] == "--signal";
        i += takes_value ? 2 : 1;
      }
      ++i;  // the duration
    } else if (name == "env" || name == "sudo" || name == "nice" || name == "ionice" ||
               name == "setsid" || name == "stdbuf") {
      ++i;
      while (i < argv.size() && (argv[i].find('=') != std::string::npos ||
                                 (!argv[i].empty() && argv[i][0] == '-')))
        ++i;
    } else {
      break;
    }
  }
  return i;
}

std::optional<SourceKind> kind_from_exec(const std::vector<std::string>& full) {
  size_t at = program_index(full);
  if (at >= full.size()) return std::nullopt;
  std::vector<std::string> argv(full.begin() + static_cast<long>(at), full.end());
  std::string_view prog = base_name(argv[0]);
  if (prog == "uname") return K::uname;
  if (prog == "dmesg") return has(argv, "-T") || has(argv, "--ctime") ? K::dmesg_human : K::dmesg;
  if (prog == "journalctl") {
    if (has(argv, "--list-boots")) return wants_json(argv) ? K::boots_json : K::boots_txt;
    return wants_json(argv) ? K::journal_json : K::journal_text;
  }
  if (prog == "lsmod") return K::lsmod;
  if (prog == "modinfo") return K::modinfo;
  if (prog == "modprobe") {
    if (has(argv, "--show-depends")) return K::modprobe_show_depends;
    if (has(argv, "-n") || has(argv, "--dry-run")) return K::modprobe_dry_run;
    return std::nullopt;
  }
  if (prog == "dkms" && has(argv, "status")) return K::dkms_status;
  if (prog == "npu-smi") {
    if (has(argv, "topo")) return K::npu_smi_topo;
    if (has(argv, "health")) return K::npu_smi_health;
    if (has(argv, "usages")) return K::npu_smi_usages;
    if (has(argv, "common") || has(argv, "temp") || has(argv, "power")) return K::npu_smi_readings;
    if (has(argv, "-m")) return K::npu_smi_map;
    if (has(argv, "info")) return K::npu_smi_info;
    return std::nullopt;
  }
  if (prog == "hccn_tool") {
    if (has(argv, "-net_health")) return K::hccn_net_health;
    if (has(argv, "-ip")) return K::hccn_ip;
    if (has(argv, "-optical")) return K::hccn_optical;
    if (has(argv, "-link_stat")) return K::hccn_link_stat;
    if (has(argv, "-stat")) return K::hccn_stat;
    return K::hccn_link;
  }
  // `python -m torch.utils.collect_env`, `python3 -m sglang.check_env`, `lmdeploy check_env`,
  // `vllm collect-env`: a framework's environment report.
  if (prog.substr(0, 6) == "python" && argv.size() > 2 && argv[1] == "-m" &&
      (argv[2].ends_with("collect_env") || argv[2].ends_with("check_env")))
    return K::framework_env;
  if ((prog == "lmdeploy" && has(argv, "check_env")) || (prog == "vllm" && has(argv, "collect-env")))
    return K::framework_env;
  if (prog == "py-spy") return K::py_spy_dump;
  if (prog == "lspci") return K::lspci;
  if (prog == "mokutil") return K::secure_boot;
  if (prog == "lsinitramfs" || prog == "lsinitrd") return K::initramfs_list;
  bool pip = prog == "pip" || prog == "pip3" ||
             (prog.substr(0, 6) == "python" && has(argv, "-m") && has(argv, "pip"));
  if (pip && has(argv, "list") && wants_json(argv)) return K::pip_list_json;
  if (pip && has(argv, "show")) return K::pip_show;
  return std::nullopt;
}

std::string join_argv(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    out += a;
  }
  if (out.size() > 80) out = out.substr(0, 77) + "...";
  return out;
}

}  // namespace

std::optional<SourceKind> kind_from_source_path(std::string_view host_path) {
  while (!host_path.empty() && host_path.front() == '/') host_path.remove_prefix(1);
  for (const auto& rule : kSourcePaths)
    if (glob_match(rule.pattern, host_path)) return rule.kind;
  return std::nullopt;
}

std::optional<SourceKind> kind_from_command(std::string_view command) {
  std::vector<std::string> argv;
  size_t pos = 0;
  while (pos < command.size()) {
    size_t start = command.find_first_not_of(" \t", pos);
    if (start == std::string_view::npos) break;
    size_t end = command.find_first_of(" \t", start);
    if (end == std::string_view::npos) end = command.size();
    std::string_view word = command.substr(start, end - start);
    if (word == "|" || word == ";" || word == "&&" || word == ">" || word == "2>&1") break;  // first stage only
    argv.emplace_back(word);
    pos = end;
  }
  if (argv.empty()) return std::nullopt;
  size_t at = program_index(argv);
  if (at < argv.size()) {
    std::string_view prog = base_name(argv[at]);
    // cat/tail/less of a known host file: the file's kind (the last argument)
    if ((prog == "cat" || prog == "tail" || prog == "head" || prog == "less" || prog == "more") &&
        argv.size() > at + 1 && argv.back()[0] != '-')
      return kind_from_source_path(argv.back());
  }
  // `pip list` as printed (the collector asks for JSON): columns of names and versions.
  if (at < argv.size()) {
    std::string_view prog = base_name(argv[at]);
    bool pip = prog == "pip" || prog == "pip3" || (prog.substr(0, 6) == "python" && has(argv, "pip"));
    if (pip && has(argv, "list") && !wants_json(argv)) return K::pip_list_text;
    // `pip install`'s console is a process's output: the job-output reader knows its lines
    // (`Collecting x==1.0`, `Successfully installed x-1.0`) and the errors it may print.
    if (pip && has(argv, "install")) return K::python_log;
  }
  // `npu-smi info -t board` and the like print fields no reader knows: the content decides.
  if (at < argv.size() && base_name(argv[at]) == "npu-smi") {
    auto t = std::find(argv.begin(), argv.end(), "-t");
    if (t != argv.end() && t + 1 != argv.end() && *(t + 1) != "health" && *(t + 1) != "usages" &&
        *(t + 1) != "topo" && *(t + 1) != "common" && *(t + 1) != "temp" && *(t + 1) != "power")
      return std::nullopt;
  }
  return kind_from_exec(argv);
}

std::optional<SourceKind> kind_from_manifest_item(const ManifestItem& item, std::string* why) {
  if (item.exec && !item.exec->empty()) {
    auto k = kind_from_exec(*item.exec);
    if (k && why) *why = fmt::format("written by `{}`", join_argv(*item.exec));
    return k;
  }
  if (!item.source.empty()) {
    auto k = kind_from_source_path(item.source);
    if (k && why) *why = fmt::format("a copy of {}", item.source);
    return k;
  }
  return std::nullopt;
}

}  // namespace triage
