// device-exception: faults the device itself reported (task exceptions and timeouts of AI
// Core / vector core / AI CPU, HCCL notify and event timeouts, heartbeat loss, driver
// internal errors, HBM ECC and RAS events) and npu-smi health not OK. Meanings come from
// knowledge/error-codes.tsv; this file only sorts codes and signatures into kinds.
#include "correlator/device_exception.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <map>

#include "knowledge/knowledge.h"

namespace triage {
namespace {

struct Kind {
  std::string_view id;  // "aicore-exception"
  Severity severity;
  std::string_view title;
  std::string_view does_not_prove;
  std::array<std::string_view, 3> next_checks;
};

constexpr std::string_view kAsync =
    "Which Python call issued the work: errors are reported asynchronously, at the next "
    "synchronisation. Later errors in the same process are consequences, not independent evidence.";

const std::array kKinds = {
    Kind{"aicore-timeout", Severity::error, "AI Core task timed out", kAsync,
         {"grep -n 'fault kernel_name' in the plog of the process", "Rerun with ASCEND_LAUNCH_BLOCKING=1 to find the call",
          "Check the device event log for event_id 0x80C98001 / 0x80CB8001 (msnpureport)"}},
    Kind{"aicore-exception", Severity::error, "AI Core task raised an exception", kAsync,
         {"Read 'errorStr' and 'fault kernel_name' in the plog", "Rerun with ASCEND_LAUNCH_BLOCKING=1 to find the call",
          "Check that the ops package matches the toolkit version"}},
    Kind{"aivector-timeout", Severity::error, "Vector core task timed out", kAsync,
         {"grep -n 'fault kernel_name' in the plog of the process", "Rerun with ASCEND_LAUNCH_BLOCKING=1 to find the call", ""}},
    Kind{"aivector-exception", Severity::error, "Vector core task raised an exception", kAsync,
         {"Read 'errorStr' (D-cache/UB errors) and 'fault kernel_name' in the plog",
          "Rerun with ASCEND_LAUNCH_BLOCKING=1 to find the call", "Check that the ops package matches the toolkit version"}},
    Kind{"aicpu-timeout", Severity::error, "AI CPU task timed out", kAsync,
         {"Read the device-side AICPU log (device-<id>/device-<pid>_*.log)", "", ""}},
    Kind{"aicpu-exception", Severity::error, "AI CPU kernel failed", kAsync,
         {"Read the device-side AICPU log (device-<id>/device-<pid>_*.log)",
          "Check that the ops package matches the toolkit (kernel .so versions)", ""}},
    Kind{"hccl-timeout", Severity::error, "Collective communication timed out",
         "That this rank is at fault: an HCCL timeout waits for a peer; the first rank to fail or "
         "stall is usually elsewhere.",
         {"Compare the plogs of every rank: which failed or stalled first?",
          "hccn_tool -i <id> -link -g on every device", "Check HCCL_EXEC_TIMEOUT / HCCL_CONNECT_TIMEOUT"}},
    Kind{"heartbeat-lost", Severity::critical, "Device lost its heartbeat",
         "Why the device stopped: firmware, power, PCIe or a driver fault all end this way.",
         {"journalctl -k -b | grep -Ei 'ascend|pcie|hdc'", "npu-smi info -t health -i <npu> -c <chip>",
          "Collect device black-box logs (ascend-collect --device-logs)"}},
    Kind{"driver-internal", Severity::error, "Driver reported an internal error",
         "A hardware fault: driver internal errors also come from mismatched or half-installed drivers.",
         {"journalctl -k -b | grep -i ascend", "Compare driver version.info with the resident modules (modinfo, /sys/module)", ""}},
    Kind{"hbm-ecc", Severity::critical, "HBM ECC / memory error reported",
         "Which data was corrupted, or that the job's result was affected before the error.",
         {"npu-smi info -t ecc -i <npu>", "Collect the device black-box logs (hisi_logs, ascend-collect --device-logs)",
          "Isolate the device and contact hardware support if multi-bit errors repeat"}},
    Kind{"health", Severity::error, "npu-smi reports device health not OK",
         "Which fault: the health state summarises alarms; the error code names them.",
         {"npu-smi info -t health -i <npu> -c <chip>", "npu-smi info -t ecc -i <npu>", ""}},
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
      if ((k == "unit" || k == "unit2") && (v == "aivec" || v == "aivector")) return "aivector-exception";
    return "aicore-exception";
  }
  return {};
}

std::string capture(const SignatureHit& h, std::string_view name) {
  for (const auto& [k, v] : h.captures)
    if (k == name) return v;
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
  std::optional<int64_t> device;
  std::string first_time, last_time;
  std::string first_utc;  // ISO UTC of the earliest line with a known time ("" = unknown)
  size_t count = 0;
};

void add_to(Group& g, std::string code, const EvidenceRef& ev, const LocalTime& t,
            std::optional<int64_t> device) {
  if (!code.empty() && std::find(g.codes.begin(), g.codes.end(), code) == g.codes.end())
    g.codes.push_back(std::move(code));
  if (g.evidence.size() < 8) g.evidence.push_back(ev);
  if (g.count++ == 0) g.first_time = time_text(t);
  if (t.time.known() && (g.first_utc.empty() || format_utc(t.time.utc_us) < g.first_utc))
    g.first_utc = format_utc(t.time.utc_us);
  g.last_time = time_text(t);
  if (!g.device) g.device = device;
}

void from_logs(const BundleFacts& b, const KnowledgeBase& kb, std::vector<Finding>& out) {
  std::map<std::pair<std::string_view, int64_t>, Group> groups;
  for (const auto& e : b.logs.error_codes) {
    auto k = kind_of_code(e.code);
    if (k.empty()) continue;
    Group& g = groups[{k, e.origin.pid}];
    g.kind = k, g.pid = e.origin.pid;
    add_to(g, e.code, e.evidence, e.time, e.device_id);
  }
  for (const auto& h : b.logs.signature_hits) {
    auto k = kind_of_signature(h);
    if (k.empty()) continue;
    int64_t pid = h.pid.value_or(0);
    Group& g = groups[{k, pid}];
    g.kind = k, g.pid = pid;
    add_to(g, capture(h, "event_id"), h.evidence, h.time, std::nullopt);
  }
  // torch_npu's own error messages (tracebacks, warnings) name the same codes.
  for (const auto& t : b.python.torch_errors) {
    if (!t.error_code) continue;
    std::string code = std::to_string(*t.error_code);
    auto k = kind_of_code(code);
    if (k.empty()) continue;
    int64_t pid = t.stream < b.python.streams.size() ? b.python.streams[t.stream].pid.value_or(0) : 0;
    Group& g = groups[{k, pid}];
    g.kind = k, g.pid = pid;
    add_to(g, code, t.evidence, LocalTime{}, std::nullopt);
  }
  // Kernel names and error strings of the same process (knowledge signatures).
  std::map<int64_t, std::pair<std::string, std::string>> detail;  // pid -> kernel, errorStr
  for (const auto& h : b.logs.signature_hits) {
    if (!h.pid) continue;
    if (h.id == "device-exception/fault-kernel" && detail[*h.pid].first.empty())
      detail[*h.pid].first = capture(h, "kernel_name");
    if (h.id == "device-exception/error-str" && detail[*h.pid].second.empty())
      detail[*h.pid].second = capture(h, "error_str");
  }
  for (auto& [key, g] : groups) {
    const Kind& k = kind(g.kind);
    Finding f;
    f.id = fmt::format("device-exception/{}", k.id);
    f.host = b.host;
    f.severity = k.severity;
    f.confidence = g.codes.size() + (g.count > 1 ? 1 : 0) >= 2 ? Confidence::high : Confidence::medium;
    std::string who = g.pid ? fmt::format("process {}", g.pid) : "the device/kernel logs";
    f.title = fmt::format("{} ({})", k.title, who);
    std::string meanings;
    for (const auto& c : g.codes)
      if (const auto* info = kb.find_code(c))
        meanings += fmt::format(" {} = {} {}.", c, info->name, info->meaning);
    const auto& [kernel, error_str] = detail[g.pid];
    f.observed = fmt::format("{} line(s) in {} from {} to {}{}: codes {}.{}{}{}", g.count, who,
                             g.first_time, g.last_time,
                             g.device ? fmt::format(" (device {})", *g.device) : "",
                             g.codes.empty() ? "none (message only)" : fmt::format("{}", fmt::join(g.codes, ", ")),
                             meanings,
                             kernel.empty() ? "" : fmt::format(" Fault kernel: {}.", kernel),
                             error_str.empty() ? "" : fmt::format(" errorStr: {}.", error_str));
    f.supports = "The device reported this fault itself: it is a probable execution point of the "
                 "failure, unlike the Python line where the error surfaced.";
    f.does_not_prove = std::string(k.does_not_prove);
    for (const auto& c : k.next_checks)
      if (!c.empty()) f.next_checks.emplace_back(c);
    for (const auto& c : g.codes)
      if (const auto* info = kb.find_code(c); info && !info->advice.empty())
        f.next_checks.push_back(fmt::format("{}: {}", c, info->advice));
    f.evidence = g.evidence;
    f.value("kind", std::string(k.id))
        .value("pid", std::to_string(g.pid))
        .value("codes", fmt::format("{}", fmt::join(g.codes, ",")))
        .value("count", std::to_string(g.count))
        .value("device", g.device ? std::to_string(*g.device) : "")
        .value("kernel_name", kernel)
        .value("error_str", error_str)
        .value("first_utc", g.first_utc);
    out.push_back(std::move(f));
  }
}

void from_health(const BundleFacts& b, std::vector<Finding>& out) {
  const Kind& k = kind("health");
  auto add = [&](std::string npu, std::string chip, std::string status, std::string code,
                 const EvidenceRef& ev) {
    Finding f;
    f.id = "device-exception/health";
    f.host = b.host;
    f.severity = status == "Warning" ? Severity::warning : k.severity;
    f.confidence = Confidence::high;
    f.title = fmt::format("npu-smi: NPU {} chip {} health is {}", npu, chip, status);
    f.observed = fmt::format("Health {} for NPU {} chip {}{}.", status, npu, chip,
                             code.empty() || code == "NA" ? "" : fmt::format(", error code {}", code));
    f.supports = "The device's own health monitoring reports a fault or alarm.";
    f.does_not_prove = std::string(k.does_not_prove);
    for (const auto& c : k.next_checks)
      if (!c.empty()) f.next_checks.emplace_back(c);
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

void analyze_device_exception(const EvidenceSet& evidence, const AnalyzeOptions& options,
                              std::vector<Finding>& out) {
  const KnowledgeBase& kb = knowledge_for(options.knowledge_dir);
  for (const auto& b : evidence.bundles) {
    from_logs(b, kb, out);
    from_health(b, out);
  }
}

}  // namespace triage
