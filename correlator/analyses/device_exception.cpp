// device-exception: faults the device itself reported (task exceptions and timeouts of AI
// Core / vector core / AI CPU, HCCL notify and event timeouts, heartbeat loss, driver
// internal errors, HBM ECC and RAS events) and npu-smi health not OK. Meanings come from
// knowledge/error-codes.tsv and knowledge/device-events.tsv (RAS event ids of the device-log
// export); this file only sorts codes, events and signatures into kinds. The words of the
// findings: knowledge/findings/device.tsv.
#include "correlator/analyses/device_exception.h"
#include "correlator/analyses/collective_wait_site.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "knowledge/error_str_sides.h"
#include "knowledge/knowledge.h"
#include "model/time.h"

namespace triage {
namespace {

// The kinds and their severity; their words are in knowledge/findings/device.tsv.
struct Kind {
  std::string_view id;  // "aicore-exception"
  Severity severity;
};

const std::array kKinds = {
    Kind{"aicore-timeout", Severity::error},   Kind{"aicore-exception", Severity::error},
    Kind{"aivector-timeout", Severity::error}, Kind{"aivector-exception", Severity::error},
    Kind{"aicpu-timeout", Severity::error},    Kind{"aicpu-exception", Severity::error},
    Kind{"hccl-timeout", Severity::error},     Kind{"heartbeat-lost", Severity::critical},
    Kind{"driver-internal", Severity::error},  Kind{"hbm-ecc", Severity::critical},
    Kind{"device-event", Severity::warning},   Kind{"health", Severity::error},
};

const Kind& kind(std::string_view id) {
  for (const auto& k : kKinds)
    if (k.id == id) return k;
  return kKinds.front();
}

// Codes (numeric results, retCodes, message codes) that name a device fault.
std::string_view kind_of_code(std::string_view code) {
  static const std::map<std::string_view, std::string_view> m = {
      {"507014", "aicore-timeout"},     {"0x25", "aicore-timeout"},
      {"507015", "aicore-exception"},   {"0x26", "aicore-exception"},
      {"507016", "aicore-exception"},   {"507034", "aivector-timeout"},
      {"0x30", "aivector-timeout"},     {"507035", "aivector-exception"},
      {"0x31", "aivector-exception"},   {"507036", "aivector-exception"},
      {"507017", "aicpu-timeout"},      {"0x28", "aicpu-timeout"},
      {"507018", "aicpu-exception"},    {"0x2a", "aicpu-exception"},
      {"EI0002", "hccl-timeout"},       {"507048", "hccl-timeout"},
      {"507010", "heartbeat-lost"},     {"507899", "driver-internal"},
      {"507053", "hbm-ecc"},            {"507054", "hbm-ecc"},
      {"507055", "hbm-ecc"},
  };
  auto it = m.find(code);
  return it == m.end() ? std::string_view{} : it->second;
}

std::string_view kind_of_signature(const SignatureHit& h) {
  if (h.id == "device-lost/heartbeat") return "heartbeat-lost";
  if (h.id == "hccl/task-timeout") return "hccl-timeout";
  if (h.id == "tsch/aicore-timeout") return "aicore-timeout";
  if (h.id == "device-exception/aicpu-exception") return "aicpu-exception";
  if (h.id == "device-exception/hbm-ecc-event" || h.id == "kernel/hardware-memory-error") return "hbm-ecc";
  if (h.id == "device-exception/aicore-error") {
    for (const auto& [k, v] : h.captures)
      if (k.starts_with("unit") && (v == "aivec" || v == "aivector")) return "aivector-exception";
    return "aicore-exception";
  }
  return {};
}

std::string time_text(const LocalTime& t) {
  if (t.time.known()) return format_utc(t.time.utc_us);
  return t.valid ? fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02} (local)", t.civil.year, t.civil.month,
                               t.civil.day, t.civil.hour, t.civil.minute, t.civil.second)
                 : "unknown time";
}

// One group: a kind in one process (pid 0 = kernel or device logs without a pid).
struct Group {
  std::string_view kind;
  int64_t pid = 0;
  std::vector<std::string> codes;
  std::vector<EvidenceRef> evidence;
  std::vector<EvidenceRef> explains;  // the group's lines beyond the cited ones
  std::optional<int64_t> device;
  std::string first_time, last_time;
  std::string first_utc;  // ISO UTC of the earliest line with a known time ("" = unknown)
  std::optional<int64_t> first_us;  // the same in microseconds
  std::optional<int64_t> first_local_us;  // the earliest local clock time (zone unknown is fine on one host)
  size_t count = 0;
  bool job_output = false;  // a line of the group came from job output
  bool named = false;  // a line named the fault itself (a signature), not only its result code
};

// The process a torch_npu error belongs to: the stream's `(name pid=N)` tag, else the
// `[PID: n]` of the CANN error report or ERR line its traceback carried.
int64_t job_pid(const PythonFacts& py, const TorchNpuError& t) {
  if (t.stream < py.streams.size() && py.streams[t.stream].pid) return *py.streams[t.stream].pid;
  if (!t.traceback || *t.traceback >= py.tracebacks.size()) return 0;
  const PythonTraceback& tb = py.tracebacks[*t.traceback];
  if (tb.error_report && *tb.error_report < py.error_reports.size() && py.error_reports[*tb.error_report].pid)
    return *py.error_reports[*tb.error_report].pid;
  if (tb.err_line && *tb.err_line < py.err_lines.size() && py.err_lines[*tb.err_line].pid)
    return py.err_lines[*tb.err_line].pid;
  return tb.anchor.pid.value_or(0);
}

using LineKey = std::pair<std::string, uint64_t>;  // (entry, line)

// The process of torch_npu's `NPU warning, error code is N`: the stream's tag, else the
// `[PID: n]` of the CANN report the warning opened or printed right after it (torch_npu
// follows the warning with the runtime's recent error message). `report_at`: the reports
// with a pid by their first line.
int64_t warning_pid(const PythonFacts& py, const TorchWarning& w,
                    const std::map<LineKey, const ErrorReportBlock*>& report_at) {
  constexpr uint64_t kReportWithin = 5;  // lines between the warning and that report's header
  if (w.stream < py.streams.size() && py.streams[w.stream].pid) return *py.streams[w.stream].pid;
  if (w.error_report && *w.error_report < py.error_reports.size())
    return py.error_reports[*w.error_report].pid.value_or(0);
  LineKey at{w.evidence.entry, w.evidence.line};
  for (uint64_t d = 1; d <= kReportWithin; ++d) {
    at.second = w.evidence.line + d;
    if (auto it = report_at.find(at); it != report_at.end() && it->second->stream == w.stream)
      return *it->second->pid;
  }
  return 0;
}

void add_to(Group& g, std::string code, const EvidenceRef& ev, const LocalTime& t,
            std::optional<int64_t> device, const FoldedRepeats& repeats = {}) {
  if (!code.empty() && std::find(g.codes.begin(), g.codes.end(), code) == g.codes.end())
    g.codes.push_back(std::move(code));
  if (g.evidence.size() < 8) g.evidence.push_back(ev);
  else g.explains.push_back(EvidenceRef{ev.entry, ev.line, 0, {}});
  if (g.count++ == 0) g.first_time = time_text(t);
  if (t.valid) {
    int64_t local = civil_to_epoch_us(t.civil);
    if (!g.first_local_us || local < *g.first_local_us) g.first_local_us = local;
  }
  if (t.time.known() && (!g.first_us || t.time.utc_us < *g.first_us)) {
    g.first_us = t.time.utc_us;
    g.first_utc = format_utc(t.time.utc_us);
  }
  g.last_time = time_text(t);
  g.count += repeats.lines;  // lines of the same template the parser counted, not read
  if (repeats.lines && repeats.last.valid) g.last_time = time_text(repeats.last);
  if (!g.device) g.device = device;
}

// Lines the device-log export analysis reports (RAS events, APEI blocks): the log analysis
// skips them so one line is never counted twice.
std::set<LineKey> device_export_lines(const BundleFacts& b) {
  std::set<LineKey> keys;
  for (const auto& e : b.devices.ras_events) keys.insert({e.evidence.entry, e.evidence.line});
  for (const auto& m : b.devices.memory_errors) keys.insert({m.evidence.entry, m.evidence.line});
  return keys;
}

// The driver HAL results logged by a process (drvRetCode=N after `Call <fn>`): the detail of
// a 507899 driver internal error. "drvGetDevNum=87 (not in the drvError_t table)".
struct DrvDetail {
  std::vector<std::string> codes, calls;
  std::vector<EvidenceRef> evidence;
};
std::map<int64_t, DrvDetail> driver_returns(const BundleFacts& b) {
  std::map<int64_t, DrvDetail> out;
  for (const auto& h : b.logs.signature_hits) {
    if (h.id != "driver/return-code" || !h.pid) continue;
    DrvDetail& d = out[*h.pid];
    std::string code = capture_of(h, "drv_ret"), call = capture_of(h, "drv_call");
    if (!code.empty() && std::find(d.codes.begin(), d.codes.end(), code) == d.codes.end()) d.codes.push_back(code);
    if (!call.empty() && std::find(d.calls.begin(), d.calls.end(), call) == d.calls.end()) d.calls.push_back(call);
    if (d.evidence.size() < 3) d.evidence.push_back(h.evidence);
  }
  return out;
}

std::string drv_meanings(const KnowledgeBase& kb, const std::vector<std::string>& codes) {
  std::string s;
  for (const auto& c : codes) {
    const ErrorCodeInfo* info = nullptr;
    for (const auto& e : kb.error_codes)
      if (e.kind == "drv" && e.code == c) info = &e;
    s += info ? fmt::format(" drvRetCode {} = {} ({}).", c, info->name, info->meaning)
              : fmt::format(" drvRetCode {} is not in the driver HAL drvError_t table.", c);
  }
  return s;
}

// Where one compute exception happened: its finding, host, chip (or process) and first time.
struct Place {
  size_t finding;  // index in the analysis's output
  std::string host, where;
  std::optional<int64_t> first_us;     // UTC: comparable across hosts
  std::optional<int64_t> first_local_us;  // the host's clock: comparable on one host
};

bool is_compute(std::string_view kind) {
  return kind.starts_with("aicore-") || kind.starts_with("aivector-") || kind.starts_with("aicpu-");
}

void from_logs(const BundleFacts& b, const KnowledgeBase& kb, const ErrorStrSides& sides,
               const FindingTexts& texts, std::vector<Finding>& out, std::vector<Place>& places) {
  std::map<std::pair<std::string_view, int64_t>, Group> groups;
  const std::set<LineKey> export_lines = device_export_lines(b);
  auto reported_elsewhere = [&](const EvidenceRef& ev) {
    return export_lines.count({ev.entry, ev.line}) > 0;
  };
  const std::map<int64_t, DrvDetail> drv = driver_returns(b);
  for (const auto& e : b.logs.error_codes) {
    auto k = kind_of_code(e.code);
    if (k.empty() || reported_elsewhere(e.evidence)) continue;
    Group& g = groups[{k, e.origin.pid}];
    g.kind = k, g.pid = e.origin.pid;
    add_to(g, e.code, e.evidence, e.time, e.device_id, e.repeats);
  }
  for (const auto& h : b.logs.signature_hits) {
    auto k = kind_of_signature(h);
    if (k.empty() || reported_elsewhere(h.evidence)) continue;
    int64_t pid = h.pid.value_or(0);
    Group& g = groups[{k, pid}];
    g.kind = k, g.pid = pid;
    if (h.source == "job") g.job_output = true;
    g.named = true;
    std::optional<int64_t> chip;
    if (std::string c = capture_of(h, "chip"); !c.empty() && c.size() < 6) chip = std::stoll(c);
    add_to(g, capture_of(h, "event_id"), h.evidence, h.time, chip, h.repeats);
  }
  // torch_npu's own error messages (tracebacks, warnings) name the same codes.
  for (const auto& t : b.python.torch_errors) {
    if (!t.error_code) continue;
    std::string code = std::to_string(*t.error_code);
    auto k = kind_of_code(code);
    if (k.empty()) continue;
    int64_t pid = job_pid(b.python, t);
    Group& g = groups[{k, pid}];
    g.kind = k, g.pid = pid;
    g.job_output = true;
    add_to(g, code, t.evidence, LocalTime{}, std::nullopt);
  }
  // ... and its c10 warnings (`Warning: NPU warning, error code is 507048`): a runtime failure
  // torch_npu only warned about, often right before the error it raises.
  std::map<LineKey, const ErrorReportBlock*> report_at;
  if (!b.python.warnings.empty())
    for (const auto& r : b.python.error_reports)
      if (r.pid) report_at.emplace(LineKey{r.evidence.entry, r.evidence.line}, &r);
  for (const auto& w : b.python.warnings) {
    if (w.python_warning || w.level == 'I' || !w.error_code) continue;
    std::string code = std::to_string(*w.error_code);
    auto k = kind_of_code(code);
    if (k.empty()) continue;
    int64_t pid = warning_pid(b.python, w, report_at);
    Group& g = groups[{k, pid}];
    g.kind = k, g.pid = pid;
    g.job_output = true;
    add_to(g, code, w.evidence, LocalTime{}, std::nullopt);
  }
  // Kernel names and error strings of the same process (knowledge signatures).
  struct Detail {
    std::string kernel, error_str, op;
  };
  std::map<int64_t, Detail> detail;  // pid -> what the runtime names
  std::map<int64_t, std::vector<EvidenceRef>> detail_lines;  // pid -> those lines (explained)
  for (const auto& h : b.logs.signature_hits) {
    if (!h.pid) continue;
    if (h.id == "device-exception/fault-kernel" || h.id == "device-exception/error-str" ||
        h.id == "device-exception/fault-op" || h.id == "driver/return-code")
      detail_lines[*h.pid].push_back(EvidenceRef{h.evidence.entry, h.evidence.line, 0, {}});
    Detail& d = detail[*h.pid];
    if (h.id == "device-exception/fault-kernel" && d.kernel.empty()) d.kernel = capture_of(h, "kernel_name");
    if (h.id == "device-exception/error-str" && d.error_str.empty()) d.error_str = capture_of(h, "error_str");
    if (h.id == "device-exception/fault-op" && d.op.empty()) d.op = capture_of(h, "op_name");
  }
  for (auto& [key, g] : groups) {
    const Kind& k = kind(g.kind);
    Finding f;
    f.id = fmt::format("device-exception/{}", k.id);
    f.host = b.host;
    f.severity = k.severity;
    f.confidence = g.codes.size() + (g.count > 1 ? 1 : 0) >= 2 ? Confidence::high : Confidence::medium;
    std::string who = g.pid          ? fmt::format("process {}", g.pid)
                      : g.job_output ? "the job output (no pid printed)"
                                     : "the device/kernel logs";
    std::string meanings;
    for (const auto& c : g.codes)
      if (const auto* info = kb.find_code(c))
        meanings += fmt::format(" {} = {} {}.", c, info->name, info->meaning);
    const auto& [kernel, error_str, op] = detail[g.pid];
    // A driver internal error (507899) names the driver HAL result behind it.
    const DrvDetail* dd = nullptr;
    if (k.id == "driver-internal")
      if (auto it = drv.find(g.pid); it != drv.end()) dd = &it->second;
    if (dd)
      meanings += fmt::format(" Driver HAL{} returned drvRetCode {}.{}",
                              dd->calls.empty() ? "" : fmt::format(" calls {}", fmt::join(dd->calls, ", ")),
                              fmt::join(dd->codes, ", "), drv_meanings(kb, dd->codes));
    // Which side the device's own text makes visible (knowledge/error-str-sides.tsv): the
    // operator's addressing, instructions, parameters or data, or the device's memories and
    // checks. Empty when the text says neither or is not in the table.
    const ErrorStrSide* side = sides.of(error_str);
    std::string points_at = !side                      ? ""
                            : side->side == "software" ? "operator"
                            : side->side == "hardware" ? "device"
                                                       : "";
    // Lines without a time of their own (a report's body in job output) say so once.
    std::string span = g.first_time == "unknown time" && g.last_time == "unknown time"
                           ? " (no time on these lines)"
                           : fmt::format(" from {} to {}", g.first_time, g.last_time);
    f.observed = fmt::format("{} line(s) in {}{}{}: codes {}.{}{}{}{}{}", g.count, who, span,
                             g.device ? fmt::format(" (device {})", *g.device) : "",
                             g.codes.empty() ? "none (message only)" : fmt::format("{}", fmt::join(g.codes, ", ")),
                             meanings,
                             op.empty() ? "" : fmt::format(" Operator: {}.", op),
                             kernel.empty() ? "" : fmt::format(" Fault kernel: {}.", kernel),
                             error_str.empty() ? "" : fmt::format(" errorStr: {}.", error_str),
                             !side ? ""
                             : points_at.empty()
                                 ? fmt::format(" The errorStr names neither the operator nor the device: {}.", side->meaning)
                                 : fmt::format(" The errorStr points at the {}: {}.", points_at, side->meaning));
    // The words of a fault whose text names a side say so, and what that does not prove.
    render_finding_words(f, texts, {{"where", who}},
                         points_at == "operator" ? "operator" : points_at == "device" ? "device" : "");
    for (const auto& c : g.codes)
      if (const auto* info = kb.find_code(c); info && !info->next_check.empty())
        f.next_checks.push_back(fmt::format("{}: {}", c, info->next_check));
    f.evidence = g.evidence;
    f.explains = g.explains;
    if (auto it = detail_lines.find(g.pid); it != detail_lines.end() && g.pid)
      f.explains.insert(f.explains.end(), it->second.begin(), it->second.end());
    if (dd) f.evidence.insert(f.evidence.end(), dd->evidence.begin(), dd->evidence.end());
    if (dd) f.value("drv_ret_codes", fmt::format("{}", fmt::join(dd->codes, ",")))
                .value("drv_calls", fmt::format("{}", fmt::join(dd->calls, ",")));
    f.value("kind", std::string(k.id))
        .value("pid", g.pid ? std::to_string(g.pid) : "unknown")
        .value("codes", fmt::format("{}", fmt::join(g.codes, ",")))
        .value("count", std::to_string(g.count))
        .value("device", g.device ? std::to_string(*g.device) : "")
        .value("op_name", op)
        .value("kernel_name", kernel)
        .value("error_str", error_str)
        .value("points_at", points_at)
        .value("error_str_side", side ? side->side : "")
        .value("first_utc", g.first_utc);
    if (k.id == "hccl-timeout") {
      auto barrier = collective_wait_in_barrier(b);
      f.value("observed_in_barrier", barrier ? "yes" : "no");
      if (barrier) f.evidence.push_back(*barrier);
      // Issue 36: a bare result code (507048 "internal task times out", EI0002) says a wait
      // expired, not which task or what the device did before it; the device's report of
      // the stuck task does (docs/verdict.md, "Symptom or cause").
      f.value("seen_as", g.named ? "task-report" : "code-only");
    }
    if (is_compute(k.id)) {
      // A process drives one chip: a group without the chip is placed by its process.
      std::string where = g.device ? fmt::format("device {}", *g.device) : g.pid ? fmt::format("process {}", g.pid) : "";
      if (!g.device && g.pid)
        for (const auto& [key2, other] : groups)
          if (other.pid == g.pid && other.device) where = fmt::format("device {}", *other.device);
      if (!where.empty()) places.push_back(Place{out.size(), b.host, where, g.first_us, g.first_local_us});
    }
    out.push_back(std::move(f));
  }
}

// The spread of compute exceptions (issue 36): a chip does not fail in several places at once,
// an operator run on all of them does. Each compute exception gets `spread`: `several-nodes`
// (another host's within the window), `several-chips` (another chip or process of its host),
// `one-chip` (none within the window, its own time known), or "" (its time unknown: no claim).
void mark_spread(std::vector<Finding>& out, const std::vector<Place>& places) {
  constexpr int64_t kWindowUs = 60'000'000;  // "within seconds": one step of a job, far below a rerun
  for (const auto& p : places) {
    std::set<std::string> hosts, chips;
    std::vector<std::string> names;
    const bool timed = p.first_us || p.first_local_us;
    if (timed)
      for (const auto& q : places) {
        if (q.host == p.host && q.where == p.where) continue;
        // UTC when both have it; the local clock only between places of one host.
        std::optional<int64_t> gap;
        if (p.first_us && q.first_us) gap = std::abs(*q.first_us - *p.first_us);
        else if (q.host == p.host && p.first_local_us && q.first_local_us)
          gap = std::abs(*q.first_local_us - *p.first_local_us);
        if (!gap || *gap > kWindowUs) continue;
        std::string name = q.host.empty() ? q.where : fmt::format("{} on {}", q.where, q.host);
        if (chips.insert(q.host + "\n" + q.where).second) names.push_back(name);
        if (q.host != p.host) hosts.insert(q.host);
      }
    Finding& f = out[p.finding];
    std::string spread = !timed ? "" : !hosts.empty() ? "several-nodes" : !chips.empty() ? "several-chips" : "one-chip";
    f.value("spread", spread).value("spread_places", timed ? std::to_string(chips.size() + 1) : "");
    if (!names.empty())
      f.observed += fmt::format(" A compute-unit fault hit {} other place(s) within {} s: {}: a chip does not fail in "
                                "several places at once, an operator run on all of them does.",
                                names.size(), kWindowUs / 1'000'000, fmt::join(names, ", "));
  }
}

// The msnpureport export: RAS event ids (knowledge/device-events.tsv names their kind) and
// memory errors of the black box (APEI blocks, the driver record's ECC), one finding per kind
// and device.
struct DeviceGroup {
  std::vector<std::string> event_ids, names, files, addresses, locations, error_types;
  std::vector<EvidenceRef> evidence;
  std::string first_time, last_time;
  size_t events = 0, memory_errors = 0;
  bool multi_bit = false;
};

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

void from_device_events(const BundleFacts& b, const KnowledgeBase& kb, const FindingTexts& texts,
                        std::vector<Finding>& out) {
  std::map<std::pair<std::string_view, int64_t>, DeviceGroup> groups;
  auto note_time = [](DeviceGroup& g, const std::string& t) {
    if (t.empty()) return;
    if (g.first_time.empty()) g.first_time = t;
    g.last_time = t;
  };
  // The same event in two copies of a log (debug/ and run/, two exports) is one event:
  // same id, device and device time. Lines without a time are never merged.
  std::set<std::tuple<std::string, int64_t, std::string>> seen;
  auto once = [&](const std::string& id, std::optional<int64_t> device, const std::string& time,
                  const EvidenceRef& ev) {
    std::string t = time.empty() ? fmt::format("{}:{}", ev.entry, ev.line) : time;
    return seen.insert({id, device.value_or(-1), t}).second;
  };
  for (const auto& e : b.devices.ras_events) {
    if (!once(e.event_id, e.device, e.time_text, e.evidence)) continue;
    const DeviceEventInfo* info = kb.find_device_event(e.event_id);
    std::string_view k = info ? std::string_view(info->exception_kind) : "device-event";
    if (info && kind(k).id != k) k = "device-event";  // a kind this analysis does not know
    DeviceGroup& g = groups[{k, e.device.value_or(-1)}];
    add_unique(g.event_ids, e.event_id);
    if (info) {
      std::string_view meaning = info->meaning;
      while (!meaning.empty() && meaning.back() == '.') meaning.remove_suffix(1);
      add_unique(g.names, fmt::format("{} = {}", e.event_id, meaning));
    }
    add_unique(g.files, e.file_kind);
    if (g.evidence.size() < 8) g.evidence.push_back(e.evidence);
    note_time(g, e.time_text);
    ++g.events;
  }
  for (const auto& m : b.devices.memory_errors) {
    if (!once("apei:" + m.physical_address + m.error_type, m.device, m.time_text, m.evidence)) continue;
    DeviceGroup& g = groups[{"hbm-ecc", m.device.value_or(-1)}];
    add_unique(g.addresses, m.physical_address);
    add_unique(g.locations, m.location);
    add_unique(g.error_types, m.error_type);
    add_unique(g.files, m.file_kind);
    if (m.error_type.find("multi-bit") != std::string::npos) g.multi_bit = true;
    if (g.evidence.size() < 8) g.evidence.push_back(m.evidence);
    note_time(g, m.time_text);
    ++g.memory_errors;
  }
  for (const auto& [key, g] : groups) {
    const Kind& k = kind(key.first);
    int64_t device = key.second;
    std::string on = device >= 0 ? fmt::format("device {}", device) : "an unknown device";
    Finding f;
    f.id = fmt::format("device-exception/{}", k.id);
    f.host = b.host;
    f.severity = k.severity;
    // APEI blocks without a multi-bit error (corrected errors) are a warning, not critical.
    if (k.id == "hbm-ecc" && g.events == 0 && !g.multi_bit) f.severity = Severity::warning;
    f.confidence = Confidence::high;
    std::string detail;
    if (!g.event_ids.empty())
      detail += fmt::format(" Event ids {}.", fmt::join(g.event_ids, ", "));
    for (const auto& n : g.names) detail += fmt::format(" {}.", n);
    if (g.memory_errors)
      detail += fmt::format(" {} memory error record(s): error_type {}{}{}.", g.memory_errors,
                            fmt::join(g.error_types, "; "),
                            g.addresses.empty() ? "" : fmt::format(", physical_address {}", fmt::join(g.addresses, ", ")),
                            g.locations.empty() ? "" : fmt::format(", {}", fmt::join(g.locations, "; ")));
    // `npu-smi info -t current-fault-event` lists the fault manager's current events: the same
    // ids, read from the tool's answer rather than from an exported log.
    const bool npu_smi = g.files.size() == 1 && g.files.front() == "npu-smi";
    f.observed = fmt::format("{} event line(s) and {} memory error record(s) in {} of "
                             "{} ({}), device time {} to {}.{}",
                             g.events, g.memory_errors, npu_smi ? "npu-smi's current fault events" : "the device-log export",
                             on, fmt::join(g.files, ", "),
                             g.first_time.empty() ? "unknown" : g.first_time,
                             g.last_time.empty() ? "unknown" : g.last_time, detail);
    render_finding_words(f, texts, {{"where", fmt::format("{}, {}", on, npu_smi ? "npu-smi" : "device logs")}}, "export");
    f.evidence = g.evidence;
    f.value("kind", std::string(k.id))
        .value("source", npu_smi ? "npu-smi" : "device-log export")
        .value("device", device >= 0 ? std::to_string(device) : "")
        .value("event_ids", fmt::format("{}", fmt::join(g.event_ids, ",")))
        .value("count", std::to_string(g.events + g.memory_errors))
        .value("files", fmt::format("{}", fmt::join(g.files, ",")))
        .value("physical_address", fmt::format("{}", fmt::join(g.addresses, ",")))
        .value("location", fmt::format("{}", fmt::join(g.locations, ";")));
    out.push_back(std::move(f));
  }
}

void from_health(const BundleFacts& b, const FindingTexts& texts, std::vector<Finding>& out) {
  const Kind& k = kind("health");
  auto add = [&](std::string npu, std::string chip, std::string status, std::string code,
                 const EvidenceRef& ev) {
    Finding f;
    f.id = "device-exception/health";
    f.host = b.host;
    f.severity = status == "Warning" ? Severity::warning : k.severity;
    f.confidence = Confidence::high;
    f.observed = fmt::format("Health {} for NPU {} chip {}{}.", status, npu, chip,
                             code.empty() || code == "NA" ? "" : fmt::format(", error code {}", code));
    render_finding_words(f, texts, {{"npu", npu}, {"chip", chip}, {"health", status}});
    f.evidence.push_back(ev);
    f.value("kind", "health").value("npu", npu).value("chip", chip).value("health", status)
        .value("error_code", code);
    out.push_back(std::move(f));
  };
  for (const auto& h : b.devices.health)
    if (!h.status.empty() && h.status != "OK")
      add(h.npu ? std::to_string(*h.npu) : "?", h.chip ? std::to_string(*h.chip) : "?", h.status,
          h.error_code, h.evidence);
  if (b.devices.info)
    for (const auto& c : b.devices.info->chips) {
      if (c.health.empty() || c.health == "OK") continue;
      bool covered = std::any_of(b.devices.health.begin(), b.devices.health.end(),
                                 [&](const NpuHealth& h) { return h.npu == c.npu && h.chip == c.chip; });
      if (!covered) add(std::to_string(c.npu), std::to_string(c.chip), c.health, "", c.evidence);
    }
}

}  // namespace

void analyze_device_exception(const AnalysisContext& ctx, std::vector<Finding>& out) {
  const EvidenceSet& evidence = ctx.evidence;
  const KnowledgeBase& kb = ctx.knowledge;
  const ErrorStrSides& sides = error_str_sides_for(ctx.options.knowledge_dir);
  std::vector<Place> places;
  for (const auto& b : evidence.bundles) {
    from_logs(b, kb, sides, ctx.finding_texts, out, places);
    from_device_events(b, kb, ctx.finding_texts, out);
    from_health(b, ctx.finding_texts, out);
  }
  mark_spread(out, places);  // across every bundle: several nodes of one input count
}

}  // namespace triage
