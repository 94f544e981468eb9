// Content sniffing: what an entry is by its first bytes (at most kSniffBytes), for entries
// outside the bundle layout (loose directories, single files, logs/ and extra/ areas).
// Each text line is matched once against a set of line shapes (RE2::Set); the decision
// rules below turn the counts into a kind, and say why — or why nothing matched.
#include <re2/re2.h>
#include <re2/set.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <memory>
#include <set>
#include <stdexcept>
#include <vector>

#include "ingest/classify.h"
#include "knowledge/month_names.h"

namespace triage {
namespace {

using K = SourceKind;

enum Shape {
  plog, plog_device, dmesg_raw, dmesg_human, syslog_bsd, syslog_precise, syslog_iso,
  journal_localized, journal_marker, py_traceback, py_frame, py_exception, job_signal, mindspore_log, maps, modinfo,
  modinfo_key,
  lsmod_header, lsmod_row, proc_modules, npu_smi_table, npu_smi_error, npu_smi_health,
  npu_smi_usage, npu_smi_map, pip_show, pip_name, proc_status, mountinfo, cgroup, uname_line,
  dkms, show_depends, lspci_line, boots, seclog, devices_ls, sampled, npu_smi_topo, topo_row, framework_env, pip_list_header, pip_list_row, ascend_printk, bbox_history, progress_bar, repl_prompt, kv, kShapes
};

struct LineShape {
  Shape shape;
  std::string_view name;  // as reasons print it
  const char* pattern;
};

// Replaced by the month names of knowledge/month-names.tsv when the set is built: the C
// names (syslog, dmesg -T) and the localized ones (journalctl in another locale).
#define MONTH "@MONTH@"
#define LOCAL_MONTH "@LOCAL_MONTH@"
#define LEVEL "\\[(?:DEBUG|INFO|WARNING|WARN|ERROR|EVENT|TRACE|CRITICAL|FATAL)\\]"
// A plog line may follow indentation or a grep prefix: `path:12:`, `path-12-` (context),
// `path:` (grep -r without -n), also with a blank (`worker-1: `).
#define PLOG_LEAD "^\\s*(?:\\S+?:\\d+[:-]|\\S+?-\\d+-|\\S+?: ?)?"

constexpr std::array<LineShape, kShapes> kShapeTable = {{
    {plog, "plog", PLOG_LEAD LEVEL "\\s?(?:[A-Z][A-Z0-9_]*\\(-?\\d+(?:,[^)]*)?\\)|\\[pid:\\d+\\])"},
    {plog_device, "device-side plog",
     PLOG_LEAD LEVEL "\\s?(?:(?:AICPU|CCECPU|TSCH|KERNEL)\\(|[A-Z][A-Z0-9_]*\\(-1,null\\))"},
    {dmesg_raw, "raw dmesg", "^(?:<\\d+>)?\\[\\s*\\d+\\.\\d+\\] "},
    {dmesg_human, "dmesg -T",
     "^\\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) " MONTH " [ \\d]\\d \\d\\d:\\d\\d:\\d\\d \\d{4}\\] "},
    {syslog_bsd, "syslog", "^" MONTH " [ \\d]\\d \\d\\d:\\d\\d:\\d\\d \\S+ \\S"},
    {syslog_precise, "journalctl short-precise", "^" MONTH " [ \\d]\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{6} \\S+ "},
    {syslog_iso, "ISO-time syslog",
     "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?(?:Z|[+-]\\d\\d:?\\d\\d) \\S+ \\S"},
    // journalctl short in another locale (`8月 17 16:52:02 host kubelet[1234]: ...`): the
    // names come from knowledge/month-names.tsv when the set is built.
    {journal_localized, "journalctl short, localized month",
     "^ ?" LOCAL_MONTH " [ \\d]\\d \\d\\d:\\d\\d:\\d\\d(?:\\.\\d{6})? \\S+ \\S"},
    {journal_marker, "journalctl marker",
     "^-- (?:Logs begin at|Journal begins at|Journal started at|Boot [0-9a-f]{32} --|No entries --|Reboot --)"},
    {py_traceback, "Python traceback", "Traceback \\(most recent call last\\):"},
    {py_frame, "Python frame", "File \"[^\"]+\", line \\d+"},
    {py_exception, "Python exception",
     "^(?:\\[rank\\d+\\]:\\s*|\\([^)]*pid=\\d+\\)\\s*)?(?:[A-Za-z_][\\w.]*\\.)?[A-Z]\\w*(?:Error|Exception|Interrupt)(?:: |$)"},
    {job_signal, "torch_npu / CANN error report",
     "(?:^E[A-Z0-9]\\d{4}(?::|\\[PID: )|ERR\\d{5} \\w+ call \\w+ api failed|TraceBack \\(most recent call last\\)|"
     "\\[W\\d{4} \\d\\d:\\d\\d:\\d\\d\\.\\d+ |^\\[rank\\d+\\]:|^\\([\\w ]+ pid=\\d+\\) |NPU function error|"
     "ACL stream synchronize failed|"
     // torchrun's glog-style prefix and Python logging's default asctime (comma millis)
     "^[WIEF]\\d{4} \\d\\d:\\d\\d:\\d\\d\\.\\d{6} +\\d+ \\S+:\\d+\\]|"
     "^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} |"
     // job output without a CANN report (parsers/job/job_lines): OOM, loader, c10 trace, ACL
     // samples, DCMI, MindCluster component logs
     "NPU out of memory\\. Tried to allocate|: undefined symbol: |: cannot open shared object file|"
     "^Exception raised from |failed, errorCode = -?\\d+| failed: [125]\\d{5}\\b|\\berror_code=[125]\\d{5}\\b|dcmi .*ret is -?\\d+|^\\[(?:INFO|ERROR)\\]  \\S|"
     "^\\[[A-Z]+\\] +\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d+ +\\d+ +\\S+:\\d+ |"
     // DeepSpeed's log records, also indented; MindSpeed's `INFO [2026-06-22 19:25:37] `;
     // MindSpore's `[ERROR] KERNEL(1234,fffdd6e1f1e0,python):2023-10-13-...`
     "^\\s*\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}\\] \\[[A-Z]+\\] \\[\\S+:\\d+:\\w+\\] |"
     "^(?:INFO|WARNING|ERROR|DEBUG) \\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\] |"
     "^\\[(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\\] [A-Z_]+\\(\\d+,[0-9a-f]+,[^)]*\\):\\d{4}-)"},
    // MindSpore's own log: a plog-like header whose name field starts with a hex thread id
    {mindspore_log, "MindSpore log line",
     "^\\[(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\\] [A-Z_]+\\(\\d+,[0-9a-f]{6,},[^)]*\\):\\d{4}-"},
    {maps, "/proc maps",
     "^[0-9a-f]{4,16}-[0-9a-f]{4,16} [r-][w-][x-][ps] [0-9a-f]{8,16} [0-9a-f]{2,3}:[0-9a-f]{2,5} \\d+"},
    {modinfo, "modinfo",
     "^(?:filename|version|description|author|license|srcversion|alias|depends|retpoline|intree|name|"
     "vermagic|sig_id|signer|sig_key|sig_hashalgo|signature|parm|firmware|softdep|import_ns|supported|"
     "rhelversion|staging):\\s"},
    {modinfo_key, "modinfo filename/vermagic", "^(?:filename|vermagic|srcversion):\\s"},
    {lsmod_header, "lsmod header", "^Module\\s+Size\\s+Used by"},
    {lsmod_row, "lsmod row", "^[\\w-]+\\s+\\d+\\s+\\d+(?:\\s+[\\w,-]+)?\\s*$"},
    {proc_modules, "/proc/modules",
     "^[\\w-]+ \\d+ \\d+ (?:-|[\\w,-]+) (?:Live|Loading|Unloading) 0x[0-9a-f]+"},
    {npu_smi_table, "npu-smi info table",
     "^\\s*\\|\\s*(?:npu-smi \\S+\\s+Version:|NPU\\s+Name\\s+\\|\\s*Health)"},
    {npu_smi_error, "npu-smi error",
     "dcmi module initialize failed|dcmi model initialized failed|DrvMngGetConsoleLogLevel failed"},
    {npu_smi_health, "npu-smi health", "^\\s*Health Status\\s*:"},
    {npu_smi_usage, "npu-smi usages",
     "^\\s*(?:Aicore Usage Rate|HBM Usage Rate|Memory Usage Rate|Aicpu Usage Rate|NPU Utilization)\\(%\\)\\s*:"},
    {npu_smi_map, "npu-smi -m", "^\\s*NPU ID\\s+Chip ID\\s+Chip Logic ID"},
    {pip_show, "pip show",
     "^(?:Name|Version|Summary|Home-page|Author|Author-email|License|Location|Requires|Required-by|Editable project location):(?: |$)"},
    {pip_name, "pip show Name", "^Name: \\S"},
    {proc_status, "/proc status",
     "^(?:Name|Umask|State|Tgid|Ngid|Pid|PPid|TracerPid|Uid|Gid|FDSize|Groups|NStgid|NSpid|VmPeak|"
     "VmSize|VmRSS|Threads|SigQ|Cpus_allowed|voluntary_ctxt_switches):\\s"},
    {mountinfo, "mountinfo", "^\\d+ \\d+ \\d+:\\d+ \\S+ \\S+ \\S+ .*- \\S+ \\S+"},
    {cgroup, "cgroup", "^\\d+:[\\w,=]*:/"},
    {uname_line, "uname -a", "^Linux \\S+ \\d+\\.\\d+\\S* #\\d+"},
    {dkms, "dkms status",
     "^[\\w.+-]+(?:/|, )[\\w.+-]+, [\\w.+-]+, [\\w.+-]+: (?:installed|built|added)"},
    {show_depends, "modprobe output", "^(?:insmod|builtin|install) \\S+"},
    {lspci_line, "lspci",
     "^(?:(?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7] [^:]+: |\\s+(?:Kernel driver in use|Kernel modules|Subsystem): )"},
    {boots, "journalctl --list-boots",
     "^\\s*(?:-?\\d+ [0-9a-f]{32} \\w{3} \\d{4}-\\d\\d-\\d\\d|IDX BOOT ID\\s+FIRST ENTRY)"},
    {seclog, "Ascend install log", "^\\[[A-Za-z][\\w -]*\\] \\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\]"},
    {devices_ls, "ls -l of device nodes",
     "^[cb][rwxsStT-]{9}\\S*\\s+\\d+\\s+\\S+\\s+\\S+\\s+\\d+,\\s*\\d+ .*(?:davinci|devmm_svm|hisi_hdc)"},
    {sampled, "sample header", "^sampled_(?:uptime|utc)="},
    {npu_smi_topo, "npu-smi -t topo header", "^\\s*NPU0(?:\\s+NPU\\d+)+\\s+CPU Affinity\\s*$"},
    {topo_row, "npu-smi -t topo row", "^NPU\\d+(?:\\s+(?:X|HCCS|HCCS_SW|SYS|PHB|PIX|PXB|NODE|NA|UB|SIO))+(?:\\s+[\\d,-]+)?\\s*$"},
    // vLLM / torch_npu collect_env and MindSpore's run_check print package versions.
    {framework_env, "framework environment report",
     "^(?:Collecting environment information|\\[(?:pip3?|conda)\\] \\S|"
     "(?:vLLM|vLLM Ascend|PyTorch|MindSpore|torch_npu|torch-npu) [Vv]ersion\\s*:\\s*\\S|"
     "The result of multiplication ca\\w+ is correct, MindSpore has been installed|"
     // accelerate env
     "- `Accelerate` version: |- (?:PyTorch|Numpy|Python) version(?: \\(GPU\\?\\))?: \\d|"
     // mmengine's collect_env (lmdeploy check_env, mmdet, mmcv)
     "sys\\.platform: \\w+$|(?:CUDA|MUSA) available: (?:True|False)$|PyTorch compiling details: )"},
    {pip_list_header, "pip list header", "^Package +Version(?: +(?:Location|Editable project location|Installer))*\\s*$"},
    // `pip list | grep torch`: rows without the header
    {pip_list_row, "pip list row", "^[A-Za-z0-9][A-Za-z0-9._-]*  +\\d[\\w.+!-]*\\s*$"},
    // An Ascend driver message pasted without its dmesg time (or with only a journal time).
    {ascend_printk, "Ascend driver message", "^(?:" MONTH " [ \\d]\\d \\d\\d:\\d\\d:\\d\\d )?\\[ascend\\] ?\\["},
    {bbox_history, "black-box history.log",
     "^\\[\\d{4}-\\d\\d-\\d\\d-\\d\\d:\\d\\d:\\d\\d\\.\\d+\\] system exception code \\[0x[0-9A-Fa-f]+\\]"},
    // tqdm: `Adding requests: 100%|####| 2/2 [00:00<00:00, 139.13it/s]`, `50% Completed | 1/2 [...`
    {progress_bar, "progress bar", "\\d%(?: Completed)? ?\\|.*\\| ?\\d+/\\d+ \\[[0-9:<?]+"},
    // A pasted interactive session (parsers/job/repl_input): what the user typed, in order.
    {repl_prompt, "Python prompt", "^>>> \\S"},
    {kv, "key=value", "^\\s*[A-Za-z_][A-Za-z0-9_.-]*="},
}};

#undef MONTH
#undef LOCAL_MONTH
#undef LEVEL
#undef PLOG_LEAD

// RE2::Set reports table positions; the table must list shapes in enum order.
constexpr bool table_in_enum_order() {
  for (size_t i = 0; i < kShapeTable.size(); ++i)
    if (kShapeTable[i].shape != static_cast<Shape>(i)) return false;
  return true;
}
static_assert(table_in_enum_order());

class ShapeSet {
 public:
  ShapeSet() : set_(RE2::Options(), RE2::UNANCHORED) {
    const MonthNames& months = builtin_month_names();
    const std::pair<std::string_view, std::string> names[] = {{"@MONTH@", months.pattern(false)},
                                                              {"@LOCAL_MONTH@", months.pattern(true)}};
    for (const auto& s : kShapeTable) {
      std::string pattern = s.pattern;
      for (const auto& [mark, alternation] : names)
        for (size_t at = pattern.find(mark); at != std::string::npos; at = pattern.find(mark, at))
          pattern.replace(at, mark.size(), alternation);
      std::string error;
      if (set_.Add(pattern, &error) != static_cast<int>(s.shape))
        throw std::logic_error(fmt::format("sniff pattern '{}' does not compile: {}", s.name, error));
      singles_.push_back(std::make_unique<RE2>(pattern));
    }
    if (!set_.Compile()) throw std::logic_error("sniff patterns do not compile together");
  }
  void match(std::string_view line, std::vector<int>& hits) const {
    hits.clear();
    set_.Match(line, &hits);
  }
  // Without the hit list RE2::Set allocates nothing per call; the first shape in table
  // order is then found with the single patterns (lines of whole entries, not just heads).
  int first(std::string_view line) const {
    if (!set_.Match(line, nullptr)) return kShapes;
    for (int i = 0; i < kShapes; ++i)
      if (RE2::PartialMatch(line, *singles_[static_cast<size_t>(i)])) return i;
    return kShapes;
  }

 private:
  RE2::Set set_;
  std::vector<std::unique_ptr<RE2>> singles_;
};

const ShapeSet& shapes() {
  static const ShapeSet s;
  return s;
}

struct Counts {
  std::array<uint32_t, kShapes> n{};
  std::array<uint32_t, kShapes> first{};  // first line number with the shape
  uint32_t lines = 0, nonempty = 0, first_nonempty_shape_mask = 0;
  std::vector<int> first_line_hits;
  std::set<std::string, std::less<>> keys;  // of key=value lines
  uint32_t count(Shape s) const { return n[s]; }
  bool has(Shape s) const { return n[s] > 0; }
  bool first_line_is(Shape s) const {
    return std::find(first_line_hits.begin(), first_line_hits.end(), s) != first_line_hits.end();
  }
  bool share(Shape s, double fraction) const { return nonempty > 0 && n[s] >= fraction * nonempty; }
};

Counts count_shapes(std::string_view head, bool whole) {
  Counts c;
  std::vector<int> hits;
  size_t pos = 0;
  while (pos < head.size()) {
    size_t nl = head.find('\n', pos);
    if (nl == std::string_view::npos) {
      if (!whole) break;  // cut at the sniff limit
      nl = head.size();
    }
    std::string_view line = head.substr(pos, nl - pos);
    pos = nl + 1;
    ++c.lines;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    // The task scheduler's register dump continues the TSCH plog record above it; it says
    // nothing of the kind and must not outvote the records (device-N logs).
    if (line.starts_with("<exception_print>")) continue;
    ++c.nonempty;
    shapes().match(line, hits);
    if (c.nonempty == 1) c.first_line_hits = hits;
    for (int h : hits) {
      if (c.n[h]++ == 0) c.first[h] = c.lines;
    }
    if (std::find(hits.begin(), hits.end(), kv) != hits.end() && c.keys.size() < 200) {
      size_t start = line.find_first_not_of(" \t");
      c.keys.emplace(line.substr(start, line.find('=') - start));
    }
  }
  return c;
}

SniffResult found(SourceKind k, std::string reason) { return {k, std::move(reason)}; }

std::string lines_of(const Counts& c, Shape s) {
  return fmt::format("{} of {} lines are {} lines (first at line {})", c.n[s], c.nonempty,
                     kShapeTable[s].name, c.first[s]);
}

// Files of key=value lines are told apart by their keys.
std::optional<SniffResult> by_keys(const Counts& c) {
  if (c.keys.empty() || !c.share(kv, 0.5)) return std::nullopt;
  auto has = [&](std::string_view k) { return c.keys.count(k) > 0; };
  auto any_suffix = [&](std::string_view suffix) {
    for (const auto& k : c.keys)
      if (k.size() > suffix.size() && k.compare(k.size() - suffix.size(), suffix.size(), suffix) == 0)
        return true;
    return false;
  };
  auto any_prefix = [&](std::string_view prefix) {
    for (const auto& k : c.keys)
      if (k.compare(0, prefix.size(), prefix) == 0) return true;
    return false;
  };
  if (has("ascendhal_version") || has("compatible_version_fw") ||
      (has("Innerversion") && has("compatible_version")))
    return found(K::driver_version_info, "keys of a driver version.info (Innerversion, compatible_version...)");
  if (has("firmware_version") || has("compatible_version_drv"))
    return found(K::firmware_version_info, "keys of a firmware version.info (firmware_version, compatible_version_drv)");
  if (any_suffix("_running_version") || any_suffix("_upgrade_version") || any_suffix("_installed_version"))
    return found(K::cann_version_cfg, "keys of a CANN version.cfg (<component>_running_version=[...])");
  if (has("package_name") || (has("version") && has("innerversion")))
    return found(K::cann_install_info, "keys of a CANN *_install.info (package_name, version, innerversion)");
  if (has("Driver_Install_Path_Param") || has("Driver_Install_Type") || (has("UserName") && has("UserGroup")))
    return found(K::ascend_install_info, "keys of /etc/ascend_install.info (Driver_Install_*)");
  if (has("epoch") && (has("utc") || has("utc_offset")))
    return found(K::time_txt, "keys of the bundle's time.txt (epoch, utc, utc_offset)");
  if (has("boot_id") && (has("btime") || has("uptime_s")))
    return found(K::boot_txt, "keys of the bundle's boot.txt (boot_id, btime)");
  if (has("tz_posix") || (has("TZ") && has("utc_offset")))
    return found(K::proc_tz_txt, "keys of a process tz.txt (tz_posix, utc_offset)");
  if (has("ID") && (has("PRETTY_NAME") || has("VERSION_ID")))
    return found(K::os_release, "keys of os-release (ID, PRETTY_NAME, VERSION_ID)");
  if (any_prefix("address_") || any_prefix("netmask_"))
    return found(K::hccn_conf, "keys of hccn.conf (address_N, netmask_N)");
  if (has("Version") && (has("version_dir") || c.keys.size() <= 3))
    return found(K::cann_version_info, "keys of a CANN component version.info (Version=)");
  if (has("PATH") || has("LD_LIBRARY_PATH") || any_prefix("ASCEND_") || has("PYTHONPATH"))
    return found(K::proc_environ, fmt::format("environment listing: {} KEY=VALUE lines incl. PATH or ASCEND_*", c.n[kv]));
  return std::nullopt;
}

// NUL-separated /proc files; anything else holding NUL bytes is binary.
std::optional<SniffResult> nul_separated(std::string_view head) {
  size_t fields = 0, env_like = 0, printable = 0;
  size_t pos = 0;
  while (pos < head.size()) {
    size_t end = head.find('\0', pos);
    if (end == std::string_view::npos) end = head.size();
    std::string_view f = head.substr(pos, end - pos);
    pos = end + 1;
    if (f.empty()) continue;
    ++fields;
    bool ok = std::all_of(f.begin(), f.end(), [](char ch) {
      auto u = static_cast<unsigned char>(ch);
      return u >= 0x20 || ch == '\t';
    });
    printable += ok;
    size_t eq = f.find('=');
    if (ok && eq != std::string_view::npos && eq > 0 &&
        std::all_of(f.begin(), f.begin() + static_cast<long>(eq), [](char ch) {
          return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
        }))
      ++env_like;
  }
  if (fields == 0) return std::nullopt;
  if (fields >= 2 && env_like * 5 >= fields * 4)
    return found(K::proc_environ, fmt::format("NUL-separated KEY=VALUE fields ({} of {})", env_like, fields));
  if (printable == fields && fields <= 4096 && env_like * 2 < fields)
    return found(K::proc_cmdline, fmt::format("NUL-separated printable arguments ({})", fields));
  return std::nullopt;
}

std::optional<SniffResult> json_document(std::string_view head) {
  size_t start = head.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return std::nullopt;
  char open = head[start];
  // "[ERROR] ..." and "[ 12.5] ..." are log lines: a JSON document here is an object or an
  // array of objects.
  size_t next = head.find_first_not_of(" \t\r\n", start + 1);
  char inner = next == std::string_view::npos ? '\0' : head[next];
  if (!(open == '{' && (inner == '"' || inner == '}')) && !(open == '[' && (inner == '{' || inner == ']')))
    return std::nullopt;
  std::string_view first_line = head.substr(start, head.find('\n', start) - start);
  std::string_view early = head.substr(start, 4096);
  auto in = [](std::string_view hay, std::string_view needle) {
    return hay.find(needle) != std::string_view::npos;
  };
  if (open == '{' && in(early, "\"format\"") && in(early, "\"ascend-bundle\""))
    return found(K::manifest_json, "JSON object with \"format\": \"ascend-bundle\"");
  if (open == '{' && (in(first_line, "\"__REALTIME_TIMESTAMP\"") || in(first_line, "\"__CURSOR\"") ||
                      in(first_line, "\"__ascend_collect_cut__\"")))
    return found(K::journal_json, "JSON lines with journal fields (__REALTIME_TIMESTAMP, __CURSOR)");
  if (open == '{' && in(first_line, "\"path\"") && in(first_line, "\"status\""))
    return found(K::manifest_items_jsonl, "JSON lines with collector item fields (path, status)");
  if (open == '{' && in(early, "\"argv\"") && in(early, "\"timed_out\""))
    return found(K::probe_json, "JSON object with probe fields (argv, rc, timed_out)");
  if (open == '[' && in(early, "\"boot_id\"") && (in(early, "\"first_entry\"") || in(early, "\"index\"")))
    return found(K::boots_json, "JSON array of boots (boot_id, first_entry)");
  if (open == '[' && in(early, "\"name\"") && in(early, "\"version\""))
    return found(K::pip_list_json, "JSON array of {name, version} (pip list --format=json)");
  return found(K::unknown, "JSON, but not a document of a known kind");
}

std::string near_misses(const Counts& c) {
  std::vector<std::pair<uint32_t, Shape>> seen;
  for (int s = 0; s < kShapes; ++s)
    if (c.n[s] > 0 && s != kv && s != modinfo_key && s != pip_name) seen.push_back({c.n[s], Shape(s)});
  std::sort(seen.begin(), seen.end(), [](auto& a, auto& b) { return a.first > b.first; });
  std::string out;
  for (size_t i = 0; i < seen.size() && i < 3; ++i)
    out += fmt::format("{}{} {}", i ? ", " : "; closest: ", kShapeTable[seen[i].second].name, seen[i].first);
  if (c.share(kv, 0.5)) {
    out += "; key=value lines with keys ";
    size_t i = 0;
    for (const auto& k : c.keys) {
      if (i++ == 4) {
        out += ", ...";
        break;
      }
      out += (i > 1 ? ", " : "") + k;
    }
  }
  return out;
}

// Shape -> kind for one line; the first shape in table order wins (plog before Python
// before tables before key=value).
constexpr std::array<SourceKind, kShapes> kShapeKind = {{
    K::plog, K::plog, K::dmesg, K::dmesg_human, K::syslog, K::journal_text, K::syslog,
    K::journal_text /* journal_localized */, K::journal_text, K::python_log, K::python_log, K::python_log, K::python_log,
    K::python_log /* mindspore_log */, K::proc_maps,
    K::modinfo, K::modinfo, K::lsmod, K::lsmod, K::proc_modules, K::npu_smi_info,
    K::npu_smi_info, K::npu_smi_health, K::npu_smi_usages, K::npu_smi_map, K::pip_show,
    K::pip_show, K::proc_status, K::mountinfo, K::proc_cgroup, K::uname, K::dkms_status,
    K::modprobe_show_depends, K::lspci, K::boots_txt, K::ascend_seclog, K::devices_txt,
    K::thread_sample, K::npu_smi_topo, K::npu_smi_topo, K::framework_env, K::pip_list_text, K::pip_list_text, K::dmesg, K::device_log_export, K::python_log /* progress_bar */,
    K::python_log /* repl_prompt */,
    K::proc_environ,
}};
// One kind per shape: a missing initializer would leave the last shape `unknown` and shift
// every kind after it, silently (two branches each added shapes in one merge).
static_assert(kShapeKind[kShapes - 1] == K::proc_environ && kShapeKind[maps] == K::proc_maps &&
              kShapeKind[bbox_history] == K::device_log_export);

}  // namespace

SourceKind line_shape_kind(std::string_view line) {
  int best = shapes().first(line);
  return best == kShapes ? K::unknown : kShapeKind[best];
}

SniffResult sniff_content(std::string_view head, bool whole) {
  head = head.substr(0, kSniffBytes);
  if (head.empty()) return found(K::unknown, "empty");
  if (head.substr(0, 4) == "TZif") return found(K::localtime_tzif, "TZif magic (a zoneinfo file)");
  if (head.substr(0, 4) == "\x7f" "ELF") return found(K::unknown, "an ELF binary");
  if ((head.size() > 262 && head.substr(257, 5) == "ustar") || head.substr(0, 4) == "PK\x03\x04")
    return found(K::unknown, "an archive inside the input: not opened (give it as a path of its own)");
  if (head.find('\0') != std::string_view::npos) {
    if (auto r = nul_separated(head)) return *r;
    return found(K::unknown, "binary data (NUL bytes in the first 64 KiB)");
  }
  size_t control = std::count_if(head.begin(), head.end(), [](char ch) {
    auto u = static_cast<unsigned char>(ch);
    return (u < 0x20 && ch != '\n' && ch != '\r' && ch != '\t' && ch != '\x1b' && ch != '\f') || u == 0x7f;
  });
  if (control * 20 > head.size()) return found(K::unknown, "binary data (control bytes)");
  if (auto r = json_document(head)) return *r;

  Counts c = count_shapes(head, whole);
  if (c.nonempty == 0) return found(K::unknown, "only blank lines");

  // A Python traceback makes the file job output even when plog lines dominate: plog files
  // are written by the CANN logger alone and never hold one, while a job's stdout holds
  // plog lines whenever ASCEND_SLOG_PRINT_TO_STDOUT=1.
  if (c.has(py_traceback))
    return found(K::python_log, fmt::format("Python traceback at line {}", c.first[py_traceback]));
  if (c.count(py_frame) >= 2)
    return found(K::python_log, fmt::format("Python stack frames from line {}", c.first[py_frame]));
  // MindSpore's log lines also match the plog shape; when they are most of it, it is job output.
  if (c.has(mindspore_log) && c.n[mindspore_log] * 2 >= c.n[plog])
    return found(K::python_log, fmt::format("MindSpore log lines ({} of {} lines, first at line {})",
                                            c.n[mindspore_log], c.nonempty, c.first[mindspore_log]));
  if (c.share(plog, 0.5)) {
    if (c.n[plog_device] * 2 > c.n[plog])
      return found(K::device_log, lines_of(c, plog) + fmt::format(", {} from device-side modules", c.n[plog_device]));
    return found(K::plog, lines_of(c, plog));
  }
  if (c.has(journal_marker) && (c.has(syslog_bsd) || c.has(syslog_iso)))
    return found(K::journal_text, fmt::format("journalctl marker line at line {}", c.first[journal_marker]));
  if (c.share(syslog_precise, 0.5)) return found(K::journal_text, lines_of(c, syslog_precise));
  // rsyslog and RFC 3164 write C month names: a localized one is journalctl's.
  if (c.share(journal_localized, 0.5)) return found(K::journal_text, lines_of(c, journal_localized));
  if (c.share(dmesg_human, 0.5)) return found(K::dmesg_human, lines_of(c, dmesg_human));
  if (c.share(dmesg_raw, 0.5)) return found(K::dmesg, lines_of(c, dmesg_raw));
  if (c.nonempty > 0 && c.n[syslog_bsd] + c.n[syslog_iso] >= 0.5 * c.nonempty)
    return found(K::syslog, lines_of(c, c.n[syslog_bsd] >= c.n[syslog_iso] ? syslog_bsd : syslog_iso));
  if (c.share(maps, 0.8)) return found(K::proc_maps, lines_of(c, maps));
  if (c.share(proc_modules, 0.8)) return found(K::proc_modules, lines_of(c, proc_modules));
  if (c.first_line_is(lsmod_header)) return found(K::lsmod, "lsmod header (Module Size Used by)");
  if (c.has(modinfo_key) && c.share(modinfo, 0.5)) return found(K::modinfo, lines_of(c, modinfo));
  if (c.has(npu_smi_topo)) return found(K::npu_smi_topo, fmt::format("npu-smi -t topo header at line {}", c.first[npu_smi_topo]));
  if (c.has(npu_smi_table)) return found(K::npu_smi_info, fmt::format("npu-smi info table header at line {}", c.first[npu_smi_table]));
  if (c.has(npu_smi_map)) return found(K::npu_smi_map, "npu-smi info -m header (NPU ID Chip ID Chip Logic ID)");
  if (c.has(npu_smi_health)) return found(K::npu_smi_health, "npu-smi health fields (Health Status :)");
  if (c.has(npu_smi_usage)) return found(K::npu_smi_usages, "npu-smi usage fields (... Usage Rate(%) :)");
  if (c.has(npu_smi_error)) return found(K::npu_smi_info, "npu-smi error output (dcmi initialise failure)");
  if (c.share(mountinfo, 0.8)) return found(K::mountinfo, lines_of(c, mountinfo));
  if (c.share(cgroup, 0.8)) return found(K::proc_cgroup, lines_of(c, cgroup));
  if (c.count(proc_status) >= 3 && c.first_line_is(proc_status)) return found(K::proc_status, lines_of(c, proc_status));
  if (c.first_line_is(pip_name) && c.count(pip_show) >= 2) return found(K::pip_show, "pip show fields (Name:, Version:)");
  if (c.first_line_is(uname_line) && c.nonempty <= 3) return found(K::uname, "one uname -a line");
  if (c.share(dkms, 0.5)) return found(K::dkms_status, lines_of(c, dkms));
  if (c.share(show_depends, 0.5)) return found(K::modprobe_show_depends, lines_of(c, show_depends));
  if (c.share(lspci_line, 0.5)) return found(K::lspci, lines_of(c, lspci_line));
  if (c.share(boots, 0.5)) return found(K::boots_txt, lines_of(c, boots));
  if (c.share(seclog, 0.3)) return found(K::ascend_seclog, lines_of(c, seclog));
  if (c.share(devices_ls, 0.5)) return found(K::devices_txt, lines_of(c, devices_ls));
  if (c.share(bbox_history, 0.5)) return found(K::device_log_export, lines_of(c, bbox_history));
  if (c.first_line_is(sampled)) return found(K::thread_sample, "sample header (sampled_uptime=)");
  if (head.find("__version__ =") != std::string_view::npos && head.find("git_version") != std::string_view::npos)
    return found(K::torch_npu_version_py, "__version__ and git_version assignments (torch_npu/version.py)");
  if (c.first_line_is(pip_list_header)) return found(K::pip_list_text, "pip list header (Package Version)");
  if (c.count(pip_list_row) >= 2 && c.share(pip_list_row, 0.8)) return found(K::pip_list_text, lines_of(c, pip_list_row));
  if (c.count(framework_env) >= 2 && !c.has(py_traceback))
    return found(K::framework_env, lines_of(c, framework_env));
  if (auto r = by_keys(c)) return *r;
  // Driver messages pasted bare, their headers and bodies often on separate lines.
  if (c.share(ascend_printk, 0.25) && !c.has(job_signal) && !c.has(py_exception))
    return found(K::dmesg, lines_of(c, ascend_printk));
  // Job output without a traceback in its first 64 KiB: torch_npu warnings, CANN error
  // reports, Python exceptions, or plog lines printed to stdout among other text.
  if (c.has(job_signal) || c.has(py_exception) || c.has(plog)) {
    Shape s = c.has(job_signal) ? job_signal : c.has(py_exception) ? py_exception : plog;
    return found(K::python_log, fmt::format("job output: {} at line {} among {} lines",
                                            kShapeTable[s].name, c.first[s], c.nonempty));
  }
  // A healthy run's console: progress bars and the job's prints, nothing else a reader knows.
  if (c.count(progress_bar) >= 2)
    return found(K::python_log, fmt::format("job output: {} progress bars from line {}",
                                            c.count(progress_bar), c.first[progress_bar]));
  // An interactive session without an error yet: the order of its statements can be the fault.
  if (c.count(repl_prompt) >= 2)
    return found(K::python_log, fmt::format("job output: {} Python prompt lines from line {}",
                                            c.count(repl_prompt), c.first[repl_prompt]));
  return found(K::unknown, fmt::format("text, {} line{}: no known format{}", c.nonempty,
                                       c.nonempty == 1 ? "" : "s", near_misses(c)));
}

}  // namespace triage
