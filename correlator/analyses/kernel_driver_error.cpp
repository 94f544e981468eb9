// kernel-driver-error: errors the Ascend driver printed in the host (or device) kernel log at
// run time, grouped by module and function. Module load failures (`Unknown symbol`, ...) are
// the driver-binding analysis's and are left out here.
#include "correlator/analyses/kernel_driver_error.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include "model/kernel_words.h"

namespace triage {
namespace {

bool is_error(const KernelEvent& e) {
  if (e.module_failure) return false;
  if (e.fault_manager) return true;
  if (!e.ascend) return false;
  if (e.ascend->error_tag) return true;
  if (e.priority.size() == 1 && e.priority[0] >= '0' && e.priority[0] <= '3') return true;
  return has_ascend_error_word(e.ascend->message);
}

bool is_severe(const KernelEvent& e) {
  std::string_view m = e.ascend ? std::string_view(e.ascend->message) : std::string_view(e.message);
  return contains_lower_ascii(m, "device is abnormal") || contains_lower_ascii(m, "hdc") ||
         contains_lower_ascii(m, "heartbeat");
}

std::string when(const KernelEvent& e) {
  if (e.time.known()) return format_utc(e.time.utc_us);
  if (e.uptime_s) return fmt::format("{:.3f} s after boot", *e.uptime_s);
  return "unknown time";
}

// The last line a folded storm counted on `e` (KernelEvent::repeats); when(e) when none.
std::string when_last(const KernelEvent& e) {
  if (!e.repeats.lines) return when(e);
  if (e.repeats.last.known()) return format_utc(e.repeats.last.utc_us);
  if (e.repeats.last_uptime_s) return fmt::format("{:.3f} s after boot", *e.repeats.last_uptime_s);
  return "unknown time";
}

// The device a severe line names in its (k=v) tail: `device=1`, `dev_id=0`, `devid=3`.
std::string device_of(const KernelEvent& e) {
  if (!e.ascend) return {};
  for (const auto& [k, v] : e.ascend->values)
    if (k == "device" || k == "dev_id" || k == "devid" || k == "device_id" || k == "dev") return v;
  return {};
}

struct Group {
  std::string module, function;
  size_t count = 0;
  std::string first, last;
  EvidenceRef first_evidence, last_evidence;
  bool severe = false;
  std::vector<EvidenceRef> lines;  // every line of the group: the finding explains them
};

}  // namespace

void analyze_kernel_driver_error(const AnalysisContext& ctx, std::vector<Finding>& out) {
  for (const auto& b : ctx.evidence.bundles) {
    std::map<std::pair<std::string, std::string>, Group> groups;
    std::vector<std::string> devices;  // named by severe lines, in order of first appearance
    size_t lines = 0;
    for (const auto& e : b.logs.kernel_events) {
      if (!is_error(e)) continue;
      lines += 1 + e.repeats.lines;
      std::string module = e.ascend ? e.ascend->module : "fault_manager";
      std::string function = e.ascend ? e.ascend->function : "";
      Group& g = groups[{module, function}];
      if (g.count++ == 0) {
        g.module = module, g.function = function;
        g.first = when(e);
        g.first_evidence = e.evidence;
      }
      g.count += e.repeats.lines;  // lines of its template counted on it, not read
      g.last = when_last(e);
      g.last_evidence = e.evidence;
      g.lines.push_back(EvidenceRef{e.evidence.entry, e.evidence.line, 0, {}});
      g.severe = g.severe || is_severe(e);
      if (std::string d = device_of(e); !d.empty() && is_severe(e) &&
                                        std::find(devices.begin(), devices.end(), d) == devices.end())
        devices.push_back(d);
    }
    if (groups.empty()) continue;
    Finding f;
    f.id = "kernel-driver-error";
    f.host = b.host;
    bool severe = false;
    std::string observed;
    size_t n = 0;
    for (const auto& [key, g] : groups) {
      severe = severe || g.severe;
      observed += fmt::format("{}[{}] {}: {} line(s), first {}, last {}", observed.empty() ? "" : "; ",
                              g.module, g.function.empty() ? "-" : g.function, g.count, g.first, g.last);
      f.evidence.push_back(g.first_evidence);
      f.explains.insert(f.explains.end(), g.lines.begin(), g.lines.end());
      if (g.count > 1 && f.evidence.size() < 40) f.evidence.push_back(g.last_evidence);
      f.value(fmt::format("group.{}", n++), fmt::format("{}/{} count={} first={} last={}", g.module,
                                                         g.function, g.count, g.first, g.last));
    }
    f.severity = severe ? Severity::error : Severity::warning;
    f.confidence = Confidence::medium;
    f.observed = observed + ".";
    std::string device_list;
    for (const auto& d : devices) device_list += (device_list.empty() ? "" : ", ") + d;
    if (!devices.empty()) f.observed += fmt::format(" Device(s) the driver lost or found abnormal: {}.", device_list);
    render_finding_words(f, ctx.finding_texts,
                         {{"lines", std::to_string(lines)}, {"groups", std::to_string(groups.size())}},
                         severe ? "severe" : "");
    // The driver's device id is a physical id; `npu-smi info -m` maps it to the NPU id.
    for (const auto& d : devices)
      if (f.next_checks.size() < 8)
        f.next_checks.push_back(fmt::format("npu-smi info -m; npu-smi info -t health -i <npu of device {}>  "
                                            "# its health and alarm codes; msnpureport -f for its event log",
                                            d));
    f.value("lines", std::to_string(lines)).value("groups", std::to_string(groups.size()));
    if (!devices.empty()) f.value("devices", device_list);
    out.push_back(std::move(f));
  }
}

}  // namespace triage
