// Content sniffing: what an entry is by its first bytes (at most kSniffBytes), for entries
// outside the bundle layout (loose directories, single files, logs/ and extra/ areas).
// Each text line is matched once against the line shapes of knowledge/line-shapes.tsv (one
// RE2::Set); the decision rules below turn the counts into a kind, and say why — or why
// nothing matched. The rules are the precedence the data cannot say (a traceback beats plog
// lines, a localized month means journalctl, ...); each is one line with its reason.
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
#include "ingest/sniff_job_text.h"
#include "ingest/head_lines.h"
#include "knowledge/line_shapes.h"
#include "parsers/common/line_prefix.h"

namespace triage {
namespace {

using K = SourceKind;

// The program's own text behind a launcher, container or grep prefix, "" when the line has
// none. A logger prefix stays: it says what the line is (the vllm_log shape).
std::string_view unwrapped(std::string_view line) {
  LinePrefix lp = split_line_prefix(line, {.grep = true, .container = true, .launcher = true, .logger = false});
  return lp.body.size() < line.size() ? lp.body : std::string_view{};
}

// The shapes the decision rules below name, by their ids in knowledge/line-shapes.tsv (the
// patterns, kinds and names live there, with samples). A row the rules do not name is a
// generic shape: more than half of an entry's lines of it make the entry its kind.
#define SNIFF_SHAPES(X)                                                                          \
  X(plog) X(plog_device) X(dmesg_raw) X(dmesg_human) X(syslog_bsd) X(syslog_precise)             \
  X(syslog_iso) X(journal_localized) X(journal_marker) X(py_traceback) X(py_frame)               \
  X(py_exception) X(job_signal) X(mindspore_log) X(maps) X(modinfo) X(modinfo_key)              \
  X(lsmod_header) X(lsmod_row) X(proc_modules) X(npu_smi_table) X(npu_smi_error)                 \
  X(npu_smi_health) X(npu_smi_usage) X(npu_smi_map) X(pip_show) X(pip_name) X(proc_status)       \
  X(mountinfo) X(cgroup) X(uname_line) X(dkms) X(show_depends) X(lspci_line) X(boots) X(seclog)  \
  X(devices_ls) X(sampled) X(npu_smi_topo) X(topo_row) X(framework_env) X(pip_list_header)       \
  X(pip_list_row) X(ascend_printk) X(bbox_history) X(progress_bar) X(repl_prompt) X(kv)

#define SHAPE_ENUM(id) id,
#define SHAPE_ID(id) #id,
enum Shape { SNIFF_SHAPES(SHAPE_ENUM) kShapes };
constexpr std::string_view kShapeIds[] = {SNIFF_SHAPES(SHAPE_ID)};
#undef SHAPE_ENUM
#undef SHAPE_ID
#undef SNIFF_SHAPES
static_assert(std::size(kShapeIds) == kShapes);

// The rows of knowledge/line-shapes.tsv as one RE2::Set, in file order: for one line the
// first row that matches names its kind.
class ShapeSet {
 public:
  explicit ShapeSet(const std::vector<LineShapeRow>& rows) : set_(RE2::Options(), RE2::UNANCHORED) {
    row_of_.fill(-1);
    for (size_t r = 0; r < rows.size(); ++r) {
      std::string error;
      if (set_.Add(rows[r].pattern, &error) != static_cast<int>(r))
        throw std::logic_error(fmt::format("line shape '{}' does not compile: {}", rows[r].id, error));
      singles_.push_back(std::make_unique<RE2>(rows[r].pattern));
      kinds_.push_back(parse_source_kind(rows[r].kind).value_or(SourceKind::unknown));
      names_.push_back(rows[r].name);
      int shape = -1;
      for (int s = 0; s < kShapes; ++s)
        if (kShapeIds[s] == rows[r].id) shape = s;
      shape_of_row_.push_back(shape);
      if (shape >= 0) row_of_[static_cast<size_t>(shape)] = static_cast<int>(r);
      else generic_rows_.push_back(static_cast<int>(r));
    }
    for (int s = 0; s < kShapes; ++s)
      if (row_of_[static_cast<size_t>(s)] < 0)
        throw std::logic_error(fmt::format("knowledge/line-shapes.tsv lacks shape '{}' that ingest/sniff.cpp names",
                                           kShapeIds[s]));
    if (!set_.Compile()) throw std::logic_error("line shapes do not compile together");
  }
  // The rows `line` matches (indices into the file's rows).
  // A line no shape takes is tried once more without the launcher, container and grep
  // prefixes the readers strip (parsers/common/line_prefix.h): a form behind a wrapper nobody
  // wrote a shape for is still its kind.
  void match(std::string_view line, std::vector<int>& hits) const {
    hits.clear();
    set_.Match(line, &hits);
    if (hits.empty())
      if (auto body = unwrapped(line); !body.empty()) set_.Match(body, &hits);
  }
  // Without the hit list RE2::Set allocates nothing per call; the first row in file order is
  // then found with the single patterns (lines of whole entries, not just heads). -1: none.
  int first_row(std::string_view line) const {
    if (!set_.Match(line, nullptr)) {
      line = unwrapped(line);
      if (line.empty() || !set_.Match(line, nullptr)) return -1;
    }
    for (size_t i = 0; i < singles_.size(); ++i)
      if (RE2::PartialMatch(line, *singles_[i])) return static_cast<int>(i);
    return -1;
  }
  int rows() const { return static_cast<int>(singles_.size()); }
  int shape_of_row(int row) const { return shape_of_row_[static_cast<size_t>(row)]; }
  SourceKind kind_of_row(int row) const { return kinds_[static_cast<size_t>(row)]; }
  std::string_view name_of_row(int row) const { return names_[static_cast<size_t>(row)]; }
  std::string_view name(Shape s) const { return name_of_row(row_of_[static_cast<size_t>(s)]); }
  const std::vector<int>& generic_rows() const { return generic_rows_; }

 private:
  RE2::Set set_;
  std::vector<std::unique_ptr<RE2>> singles_;
  std::vector<SourceKind> kinds_;
  std::vector<std::string> names_;
  std::vector<int> shape_of_row_;  // -1: a generic row
  std::array<int, kShapes> row_of_{};
  std::vector<int> generic_rows_;
};

const ShapeSet& shapes() {
  static const ShapeSet s(builtin_line_shapes());
  return s;
}

struct Counts {
  std::array<uint32_t, kShapes> n{};
  std::array<uint32_t, kShapes> first{};  // first line number with the shape
  uint32_t lines = 0, nonempty = 0, first_nonempty_shape_mask = 0;
  std::vector<int> first_line_hits;  // Shape values
  const ShapeSet* set = nullptr;  // the shapes counted
  std::vector<uint32_t> generic_n, generic_first;  // by row, for the rows the rules do not name
  std::set<std::string, std::less<>> keys;  // of key=value lines
  uint32_t count(Shape s) const { return n[s]; }
  bool has(Shape s) const { return n[s] > 0; }
  bool first_line_is(Shape s) const {
    return std::find(first_line_hits.begin(), first_line_hits.end(), s) != first_line_hits.end();
  }
  bool share(Shape s, double fraction) const { return nonempty > 0 && n[s] >= fraction * nonempty; }
};

Counts count_shapes(const ShapeSet& set, std::string_view head, bool whole) {
  Counts c;
  c.set = &set;
  c.generic_n.assign(static_cast<size_t>(set.rows()), 0);
  c.generic_first.assign(static_cast<size_t>(set.rows()), 0);
  std::vector<int> hits, shape_hits;
  HeadLines head_lines(head, whole);
  std::string_view line;
  while (head_lines.next(line)) {
    ++c.lines;
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    // The task scheduler's register dump continues the TSCH plog record above it; it says
    // nothing of the kind and must not outvote the records (device-N logs).
    if (line.starts_with("<exception_print>")) continue;
    ++c.nonempty;
    set.match(line, hits);
    shape_hits.clear();
    for (int row : hits) {
      int h = set.shape_of_row(row);
      if (h < 0) {
        if (c.generic_n[static_cast<size_t>(row)]++ == 0) c.generic_first[static_cast<size_t>(row)] = c.lines;
        continue;
      }
      shape_hits.push_back(h);
      if (c.n[h]++ == 0) c.first[h] = c.lines;
    }
    if (c.nonempty == 1) c.first_line_hits = shape_hits;
    if (std::find(shape_hits.begin(), shape_hits.end(), kv) != shape_hits.end() && c.keys.size() < 200) {
      size_t start = line.find_first_not_of(" \t");
      c.keys.emplace(line.substr(start, line.find('=') - start));
    }
  }
  return c;
}

SniffResult found(SourceKind k, std::string reason) { return {k, std::move(reason)}; }

std::string lines_of(const Counts& c, Shape s) {
  return fmt::format("{} of {} lines are {} lines (first at line {})", c.n[s], c.nonempty,
                     c.set->name(s), c.first[s]);
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
  // JSON lines of no kind above (a trainer's `trainer_log.jsonl`, one record a line): left to
  // the text sniffers, whose job-output forms may know the records; a JSON document is not.
  std::string_view last = first_line;
  while (!last.empty() && (last.back() == '\r' || last.back() == ' ' || last.back() == '\t')) last.remove_suffix(1);
  if (open == '{' && !last.empty() && last.back() == '}') return std::nullopt;
  return found(K::unknown, "JSON, but not a document of a known kind");
}

std::string near_misses(const Counts& c) {
  std::vector<std::pair<uint32_t, std::string_view>> seen;
  for (int s = 0; s < kShapes; ++s)
    if (c.n[s] > 0 && s != kv && s != modinfo_key && s != pip_name) seen.push_back({c.n[s], c.set->name(Shape(s))});
  for (int row : c.set->generic_rows())
    if (c.generic_n[static_cast<size_t>(row)] > 0)
      seen.push_back({c.generic_n[static_cast<size_t>(row)], c.set->name_of_row(row)});
  std::sort(seen.begin(), seen.end(), [](auto& a, auto& b) { return a.first > b.first; });
  std::string out;
  for (size_t i = 0; i < seen.size() && i < 3; ++i)
    out += fmt::format("{}{} {}", i ? ", " : "; closest: ", seen[i].second, seen[i].first);
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

}  // namespace

SourceKind line_shape_kind(std::string_view line) {
  int row = shapes().first_row(line);
  return row < 0 ? K::unknown : shapes().kind_of_row(row);
}

static SniffResult sniff_with(const ShapeSet& shape_set, std::string_view head, bool whole) {
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

  Counts c = count_shapes(shape_set, head, whole);
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
  if (c.has(npu_smi_health)) return found(K::npu_smi_health, "npu-smi health fields (Health Status : or Health :)");
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
  // Shapes only knowledge/line-shapes.tsv names: more than half of the lines make the kind.
  for (int row : c.set->generic_rows()) {
    uint32_t n = c.generic_n[static_cast<size_t>(row)];
    if (c.nonempty > 0 && n >= 0.5 * c.nonempty)
      return found(c.set->kind_of_row(row),
                   fmt::format("{} of {} lines are {} lines (first at line {})", n, c.nonempty,
                               c.set->name_of_row(row), c.generic_first[static_cast<size_t>(row)]));
  }
  if (auto r = by_keys(c)) return *r;
  // Driver messages pasted bare, their headers and bodies often on separate lines.
  if (c.share(ascend_printk, 0.25) && !c.has(job_signal) && !c.has(py_exception))
    return found(K::dmesg, lines_of(c, ascend_printk));
  // Job output without a traceback in its first 64 KiB: torch_npu warnings, CANN error
  // reports, Python exceptions, or plog lines printed to stdout among other text.
  if (c.has(job_signal) || c.has(py_exception) || c.has(plog)) {
    Shape s = c.has(job_signal) ? job_signal : c.has(py_exception) ? py_exception : plog;
    return found(K::python_log, fmt::format("job output: {} at line {} among {} lines",
                                            c.set->name(s), c.first[s], c.nonempty));
  }
  // A healthy run's console: progress bars and the job's prints, nothing else a reader knows.
  if (c.count(progress_bar) >= 2)
    return found(K::python_log, fmt::format("job output: {} progress bars from line {}",
                                            c.count(progress_bar), c.first[progress_bar]));
  // An interactive session without an error yet: the order of its statements can be the fault.
  if (c.count(repl_prompt) >= 2)
    return found(K::python_log, fmt::format("job output: {} Python prompt lines from line {}",
                                            c.count(repl_prompt), c.first[repl_prompt]));
  // A stack's progress lines, or error-level lines of any shape (ingest/sniff_job_text.h).
  if (auto r = sniff_job_text(head, whole)) return *r;
  if (head[head.find_first_not_of(" \t\r\n")] == '{')  // JSON lines json_document left to us
    return found(K::unknown, fmt::format("JSON lines ({}), but not records of a known kind", c.nonempty));
  return found(K::unknown, fmt::format("text, {} line{}: no known format{}", c.nonempty,
                                       c.nonempty == 1 ? "" : "s", near_misses(c)));
}

SniffResult sniff_content(std::string_view head, bool whole) { return sniff_with(shapes(), head, whole); }

SniffResult sniff_content_with_shapes(const std::vector<LineShapeRow>& rows, std::string_view head, bool whole) {
  const ShapeSet set(rows);
  return sniff_with(set, head, whole);
}

}  // namespace triage
