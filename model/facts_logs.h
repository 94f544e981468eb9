#pragma once
// Facts kept from plog, device and kernel logs: only what later analyses need, small and
// typed, each with its evidence. Lines themselves are never kept (see docs/log-formats.md).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "model/evidence.h"
#include "model/packed_texts.h"
#include "model/source_kind.h"
#include "model/time.h"

namespace triage {

// Plog levels in severity order; `other` counts a level word the parser does not know.
enum class PlogLevel : uint8_t { debug, info, warning, error, event, other, count_ };
std::string_view to_string(PlogLevel l);

// A local wall-clock time as read, converted to a Timestamp by the family's finishing step (finalize_plog_facts, finalize_kernel_facts).
struct LocalTime {
  CivilTime civil;
  bool valid = false;
  Timestamp time;  // unknown until finalized
};

// Later lines of one message template (digits and 0x values left out) from one pid at one
// level in one plog entry, once the template has kPlogKeptPerTemplate kept lines:
// counted on the last fact kept for it, never parsed (issue 35, storm folding). Their own
// values (a different core id in the same shape) are not read.
constexpr uint32_t kPlogKeptPerTemplate = 64;
// Distinct warning/error rows (PlogLevelLine) an entry keeps; later rows are counted only.
constexpr size_t kPlogMaxLevelRows = 256;
struct FoldedRepeats {
  uint64_t lines = 0;
  LocalTime last;  // the last folded line's time
};

// Which process wrote a plog line (the process name is not reliable, see log-formats.md).
struct PlogOrigin {
  int64_t pid = 0;
  std::string process_name;
  std::optional<int64_t> tid;
  uint64_t copy_key = 0;  // the line's key in LogFacts::plog_seen_keys (0: none)
};

// Where a device id came from: the log's path (device-<id>/), the message itself, or an
// earlier line of the same file naming the same pid and stream with a device id.
enum class DeviceIdSource : uint8_t { none, path, message, same_stream };
std::string_view to_string(DeviceIdSource s);

// `SynchronizeExecutedTask: report three minutes timeout! stream_id=, sq_id=, task_id=,
// sqHead=, flip_num=, pendingNum=` (newer) or `stream_id=, task_id=, pendingNum=` (older).
struct StallReport {
  PlogOrigin origin;
  std::optional<int64_t> device_id;
  DeviceIdSource device_id_source = DeviceIdSource::none;
  int64_t stream_id = 0;
  std::optional<int64_t> sq_id;
  int64_t task_id = 0;
  std::optional<int64_t> sq_head;
  std::optional<int64_t> flip_num;
  int64_t pending_num = 0;
  bool old_variant = false;  // the stream_id/task_id/pendingNum form
  LocalTime time;
  EvidenceRef evidence;
};

// `Stream synchronize timeout, device_id=, stream_id=, timeout=, tryCount=`.
struct StreamSyncTimeout {
  PlogOrigin origin;
  std::optional<int64_t> device_id;
  int64_t stream_id = 0;
  std::optional<int64_t> timeout_ms;
  std::optional<int64_t> try_count;
  LocalTime time;
  EvidenceRef evidence;
};

// An error code named by a plog line.
enum class ErrorCodeForm : uint8_t {
  err_code,        // rtXxx:ErrCode=507015, desc=[aicore exception], InnerCode=0x7150026
  runtime_result,  // ... runtime result = 507018
  ret_code,        // retCode=0x26 (runtime-internal task result)
  error_code_is,   // error code is 507011 / errorCode = 507033
  message_code,    // E?????: CANN error-message code (module_name=EZ9999, "EJ0001: ...")
};
std::string_view to_string(ErrorCodeForm f);

struct ErrorCodeFact {
  PlogOrigin origin;
  std::string module;       // plog module (RUNTIME, ASCENDCL, ...)
  ErrorCodeForm form = ErrorCodeForm::err_code;
  std::string code;         // "507015", "0x26", "EZ9999" as written
  std::string description;  // desc=[...] text, empty when the line has none
  std::string inner_code;   // InnerCode=0x..., empty when absent
  std::optional<int64_t> device_id;
  LocalTime time;
  EvidenceRef evidence;
  FoldedRepeats repeats;
};

// A knowledge signature that matched a line (knowledge/signatures/*.json).
struct SignatureHit {
  std::string id;
  std::string severity;  // as the signature states: info, warning, error, critical
  std::string category;
  std::optional<int64_t> pid;  // plog lines only
  std::vector<std::pair<std::string, std::string>> captures;  // named groups, in order
  std::string source;    // "plog" or the kernel form ("journal_json", "dmesg_raw", ...)
  LocalTime time;        // plog: local, converted in finalize; kernel: time.time set there
  EvidenceRef evidence;
  uint64_t copy_key = 0;  // plog lines: as PlogOrigin::copy_key
  FoldedRepeats repeats;
};

// The text a named group of a signature took, "" when the group did not take part.
inline std::string capture_of(const std::vector<std::pair<std::string, std::string>>& captures,
                              std::string_view name) {
  for (const auto& [k, v] : captures)
    if (k == name) return v;
  return {};
}
inline std::string capture_of(const SignatureHit& h, std::string_view name) { return capture_of(h.captures, name); }

// A WARNING or ERROR plog line that no other fact kept (no stall, error code or signature),
// collapsed within its entry by message with the digits left out, pid and level: the
// timeline shows it as one row with its count, first and last time. Also a line of a plog
// entry that failed the plog grammar but starts with an error level of
// knowledge/error-levels.tsv (level error, its pid where the form has one, no time).
struct PlogLevelLine {
  uint64_t key = 0;
  PlogLevel level = PlogLevel::warning;
  int64_t pid = 0;
  LocalTime first, last;
  uint64_t count = 0;
  EvidenceRef evidence;  // the first occurrence
  // A line that failed the plog grammar but carries an error level (issue 36): the code its
  // message names (parsers/common/level_line.h); "" for a parsed plog line.
  std::string code;
};

// Per plog/device-log entry: what it held, so a report can say what was read.
struct PlogEntrySummary {
  std::string entry;
  SourceKind kind = SourceKind::plog;
  std::string variant;  // "plog", "plog+grep-n", ...
  std::optional<int64_t> device_id;  // from the path (device-<id>/, dev-os-<id>/)
  std::optional<int64_t> pid_from_name;  // plog-<pid>_<time>.log / device-<pid>_<time>.log
  std::array<uint64_t, static_cast<size_t>(PlogLevel::count_)> by_level{};
  std::vector<std::pair<std::string, uint64_t>> by_module;  // module -> lines, by name
  LocalTime first, last;  // the first and last timed line (time.original as printed)
  // Distinct pids of its lines: the header's (`HCCL(1234,)`, debug lines too) and a device
  // EVENT line's `pid=N` (TSCH ring buffers); at most kMaxPids, in order of appearance.
  std::vector<int64_t> pids;
  static constexpr size_t kMaxPids = 16;
  uint64_t duplicates = 0;  // kept facts already seen in another copy (run/ vs debug/)
  std::vector<PlogLevelLine> level_lines;  // at most PlogFileParser::kMaxLevelRows
  uint64_t level_lines_over_cap = 0;       // warning/error lines of rows beyond the cap
  uint64_t folded_lines = 0;      // lines counted on an earlier fact (FoldedRepeats)
  uint64_t folded_templates = 0;  // the templates they belong to
};

// --- kernel logs -----------------------------------------------------------------------

// The Ascend driver's printk shape:
// `[ascend] [ERROR] [module] [func line] <comm:pid,tid> msg (k=v; k=v)`.
struct AscendPrintk {
  bool error_tag = false;  // the `[ERROR]` of logflow_printk
  std::string module;      // devmm, devdrv, drv_pcie, davinci_intf, ...
  std::string function;
  std::optional<int64_t> line;
  std::string comm;
  std::optional<int64_t> pid, tid;
  std::string message;     // the text between the <comm:...> tag and the (k=v) tail
  std::vector<std::pair<std::string, std::string>> values;  // the (k=v; ...) tail
};

enum class ModuleLoadProblem : uint8_t {
  unknown_symbol,         // <mod>: Unknown symbol <sym> (err -2)
  symbol_version,         // <mod>: disagrees about version of symbol <sym>
  version_magic,          // <mod>: version magic '<a>' should be '<b>'
  verification_failed,    // <mod>: module verification failed: ...
  key_rejected,           // ... Key was rejected by service
  out_of_tree_taint,      // <mod>: loading out-of-tree module taints kernel. (informational)
};
std::string_view to_string(ModuleLoadProblem p);

struct ModuleLoadFailure {
  ModuleLoadProblem problem = ModuleLoadProblem::unknown_symbol;
  std::string module;   // may be empty for key_rejected without a module name
  std::string symbol;   // unknown_symbol / symbol_version
  std::string detail;   // err code, or "have" / "want" vermagic text
};

enum class KernelLogForm : uint8_t {
  journal_json, journal_text, dmesg_raw, dmesg_human, syslog, device_kernel,
};
std::string_view to_string(KernelLogForm f);

// One kernel line kept because it matters: an Ascend printk, a [fault_manager] line, a
// module-load failure, or a knowledge signature hit. Other kernel lines are only counted.
struct KernelEvent {
  KernelLogForm form = KernelLogForm::dmesg_raw;
  std::string boot_id;        // with dashes; empty when unknown
  Timestamp time;             // unknown until finalized for dmesg / syslog / text forms
  bool approximate = false;   // dmesg raw (btime) and dmesg -T are approximate
  std::optional<double> uptime_s;  // dmesg/printk seconds since boot, when shown
  CivilTime local;            // for local-time forms, converted in finalize
  bool local_valid = false;
  bool year_missing = false;  // syslog/short forms: year estimated in finalize
  std::string priority;       // journal PRIORITY or syslog facility.level, when known
  std::string message;        // the kernel message text (without time prefixes)
  std::optional<AscendPrintk> ascend;
  bool fault_manager = false; // `[fault_manager] ...`
  std::optional<ModuleLoadFailure> module_failure;
  std::vector<SignatureHit> hits;  // moved to LogFacts::signature_hits by finalize
  EvidenceRef evidence;
  std::vector<EvidenceRef> also_seen;  // the same line in another kernel source (deduped)
  // Form and time of each also_seen copy, in the same order: the timeline measures clock
  // skew between sources on these pairs (journal vs dmesg, journal vs syslog).
  struct Copy {
    KernelLogForm form = KernelLogForm::dmesg_raw;
    Timestamp time;
  };
  std::vector<Copy> also_seen_copies;
  uint64_t dedupe_hash = 0;   // of the normalised message
  uint32_t seq = 0;           // order kept within the bundle (walk order once load ordered it)
  // Storm folding (FoldedRepeats, issue 35): the message's template (without digits and 0x
  // values) and, on its template's last kept line in the entry (template and priority), the
  // later lines counted there.
  uint64_t template_key = 0;
  struct Repeats {
    uint64_t lines = 0;
    Timestamp last;  // finalized as `time` is, from the fields below
    std::optional<double> last_uptime_s;
    CivilTime last_local;
    bool last_local_valid = false;
  } repeats;
};

// An Ascend printk at info level, with no signature hit and its UTC time from the source
// (journal JSON): no analysis reads it except finalize, which pairs it with its copy in another
// kernel source (dedupe, clock skew). Past AnalyzeOptions::full_info_kernel_lines of a bundle
// such lines are kept in this form, 64 bytes and a compressed excerpt instead of about 1.5 KiB,
// so a months-long journal costs little memory. Finalize turns the ones that pair into
// KernelEvents and drops the others.
struct KernelInfoLine {
  uint64_t dedupe_hash = 0;
  uint64_t line = 0, offset = 0;
  int64_t utc_us = 0;
  double uptime_s = 0;
  uint32_t seq = 0;       // as KernelEvent::seq
  uint32_t entry = 0;     // index into KernelInfoLines::names
  uint32_t boot_id = 0;   // index into KernelInfoLines::names (with dashes, as KernelEvent)
  uint32_t excerpt = 0;   // id in KernelInfoLines::excerpts
  KernelLogForm form = KernelLogForm::journal_json;
  bool has_uptime = false;
  bool approximate = false;
};

struct KernelInfoLines {
  std::vector<KernelInfoLine> lines;
  std::vector<std::string> names;  // entry names and boot ids, each once
  PackedTexts excerpts;
  // Few names (kernel entries, boots): a scan is enough.
  uint32_t name_id(std::string_view name) {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return static_cast<uint32_t>(i);
    names.emplace_back(name);
    return static_cast<uint32_t>(names.size() - 1);
  }
};

// The collector's cut marker in journal JSON: head and tail joined, this many bytes dropped.
struct JournalCut {
  uint64_t dropped_bytes = 0;
  EvidenceRef evidence;
};

struct KernelEntrySummary {
  std::string entry;
  KernelLogForm form = KernelLogForm::dmesg_raw;
  std::vector<std::string> boot_ids;  // seen in this entry, in order
  uint64_t lines = 0, kept = 0;
  uint64_t folded_lines = 0, folded_templates = 0;  // KernelEvent::repeats
};

// An error line of a daemon in journal or syslog text, which the kernel reader otherwise
// skips: `8月 17 16:52:02 host kubelet[1234]: E0817 16:52:02.414082  1234 x.go:90] "..."`.
struct ServiceErrorLine {
  std::string ident;           // kubelet, containerd, ascend-docker-runtime
  std::optional<int64_t> pid;  // of `ident[pid]:`
  std::string time_text;       // as printed (syslog forms print no year)
  std::string message;         // after `ident[pid]: `
  EvidenceRef evidence;
};

struct LogFacts {
  std::vector<StallReport> stalls;
  std::vector<StreamSyncTimeout> sync_timeouts;
  std::vector<ErrorCodeFact> error_codes;
  std::vector<SignatureHit> signature_hits;
  std::vector<PlogEntrySummary> plog_entries;

  std::vector<KernelEvent> kernel_events;
  std::vector<JournalCut> journal_cuts;
  std::vector<KernelEntrySummary> kernel_entries;
  uint64_t kernel_duplicates = 0;  // kernel lines merged by finalize (journal/dmesg/syslog)
  KernelInfoLines kernel_info;     // compact info lines; empty after finalize
  uint64_t kernel_info_seen = 0;   // info lines offered so far (full and compact)
  uint32_t kernel_seq = 0;         // next KernelEvent/KernelInfoLine::seq
  std::vector<ServiceErrorLine> service_errors;  // at most kMaxServiceErrors
  uint64_t service_errors_over_cap = 0;
  static constexpr size_t kMaxServiceErrors = 1000;

  std::string knowledge_origin;    // "built-in" or the --knowledge directory
  std::vector<std::string> knowledge_errors;  // a user knowledge file that did not load

  // Keys (pid, local time, message hash) of plog lines already turned into facts, with the
  // plog entry (its serial) that saw the line first. The same line in run/ and debug/ copies
  // or in stdout is kept once: a repeat in the same entry is dropped while reading; copies
  // in other entries are kept until the entries are in walk order, then only the copy of
  // the first entry stays (ingest/fact_order.cpp), whatever order an archive stored them in.
  std::unordered_map<uint64_t, uint32_t> plog_seen_keys;
  uint32_t plog_entry_serials = 0;
  bool finalized = false;
};

}  // namespace triage
