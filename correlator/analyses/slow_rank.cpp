#include "correlator/analyses/slow_rank.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <string>
#include <utility>

#include "knowledge/slow_limits.h"
#include "model/time.h"

namespace triage {
namespace {

std::string chip_name_of(const BundleFacts& b, const NpuReading& r) {
  if (!b.devices.info) return "";
  for (const auto& c : b.devices.info->chips)
    if (r.npu && c.npu == *r.npu && c.chip == r.chip.value_or(0)) return c.name;
  return "";
}

std::string when(const NpuReading& r) {
  return r.sampled_utc_us ? format_utc(*r.sampled_utc_us) : std::string("collection time");
}

std::string fmt1(double v) { return fmt::format("{:.1f}", v); }

// AI Cores below their rated clock while busy, per NPU/chip: every such reading is evidence,
// the lowest ratio gives the figures.
void downclocked(const BundleFacts& b, const AnalysisContext& ctx, const SlowLimits& lim, std::vector<Finding>& out) {
  struct Worst {
    const NpuReading* r = nullptr;
    int64_t rated = 0;
    double ratio = 2;
    std::vector<EvidenceRef> ev;
    int busy_samples = 0, low_samples = 0;
  };
  std::map<std::pair<int64_t, int64_t>, Worst> by_chip;
  for (const auto& r : b.load.readings) {
    if (!r.npu || !r.cur_freq_mhz || !r.aicore_pct) continue;
    std::string chip = chip_name_of(b, r);
    std::optional<int64_t> rated = r.rated_freq_mhz;
    if (!rated || *rated <= 0) {
      auto v = lim.value("rated_freq_mhz", chip);
      if (!v || chip.empty()) continue;
      rated = static_cast<int64_t>(*v);
    }
    double busy = lim.value("busy_aicore_pct").value_or(50), min_ratio = lim.value("freq_ratio_min").value_or(0.95);
    if (*r.aicore_pct < busy || *rated <= 0) continue;
    Worst& w = by_chip[{*r.npu, r.chip.value_or(0)}];
    ++w.busy_samples;
    double ratio = static_cast<double>(*r.cur_freq_mhz) / static_cast<double>(*rated);
    if (ratio >= min_ratio) continue;
    ++w.low_samples;
    w.ev.push_back(r.evidence);
    if (ratio < w.ratio) w.r = &r, w.rated = *rated, w.ratio = ratio;
  }
  for (const auto& [key, w] : by_chip) {
    if (!w.r) continue;
    const NpuReading& r = *w.r;
    Finding f;
    f.id = "slow-rank/aicore-downclocked";
    f.host = b.host;
    f.severity = Severity::warning;
    f.confidence = w.low_samples > 1 ? Confidence::medium : Confidence::low;
    std::string power = r.power_w ? fmt::format(", drawing {} W", fmt1(*r.power_w)) : "";
    std::string temp = r.temp_c ? fmt::format(" at {} C", *r.temp_c) : "";
    f.observed = fmt::format(
        "npu-smi info -t common of NPU {} chip {} ({}): AI Core curFreq {} MHz of {} MHz rated ({:.0f} %) while "
        "Aicore Usage Rate is {} %{}{}; {} of {} busy sample(s) below {:.0f} % of rated.",
        key.first, key.second, when(r), *r.cur_freq_mhz, w.rated, w.ratio * 100, *r.aicore_pct, temp, power,
        w.low_samples, w.busy_samples, lim.value("freq_ratio_min").value_or(0.95) * 100);
    render_finding_words(f, ctx.finding_texts,
                         {{"npu", std::to_string(key.first)}, {"chip", std::to_string(key.second)},
                          {"cur", std::to_string(*r.cur_freq_mhz)}, {"rated", std::to_string(w.rated)}});
    f.value("npu", std::to_string(key.first))
        .value("chip", std::to_string(key.second))
        .value("cur_freq_mhz", std::to_string(*r.cur_freq_mhz))
        .value("rated_freq_mhz", std::to_string(w.rated))
        .value("aicore_pct", std::to_string(*r.aicore_pct))
        .value("temp_c", r.temp_c ? std::to_string(*r.temp_c) : "")
        .value("power_w", r.power_w ? fmt1(*r.power_w) : "")
        .value("samples_low", std::to_string(w.low_samples))
        .value("samples_busy", std::to_string(w.busy_samples));
    f.evidence = w.ev;
    out.push_back(std::move(f));
  }
}

// A chip at or above the alarm temperature in any reading, per NPU/chip: the hottest reading.
void over_temperature(const BundleFacts& b, const AnalysisContext& ctx, const SlowLimits& lim, std::vector<Finding>& out) {
  std::map<std::pair<int64_t, int64_t>, std::pair<const NpuReading*, std::vector<EvidenceRef>>> hot;
  for (const auto& r : b.load.readings) {
    if (!r.npu || !r.temp_c) continue;
    auto alarm = lim.value("temp_alarm_c", chip_name_of(b, r));
    if (!alarm || static_cast<double>(*r.temp_c) < *alarm) continue;
    auto& h = hot[{*r.npu, r.chip.value_or(0)}];
    if (!h.first || *r.temp_c > *h.first->temp_c) h.first = &r;
    h.second.push_back(r.temp_evidence.entry.empty() ? r.evidence : r.temp_evidence);
  }
  for (const auto& [key, h] : hot) {
    const NpuReading& r = *h.first;
    double alarm = lim.value("temp_alarm_c", chip_name_of(b, r)).value_or(95);
    Finding f;
    f.id = "slow-rank/over-temperature";
    f.host = b.host;
    f.severity = Severity::warning;
    f.confidence = h.second.size() > 1 ? Confidence::medium : Confidence::low;
    f.observed = fmt::format("npu-smi info -t {} of NPU {} chip {} ({}): {} C, at or above {:.0f} C; {} reading(s) so hot.",
                             r.command.empty() ? "temp" : r.command, key.first, key.second, when(r), *r.temp_c,
                             alarm, h.second.size());
    render_finding_words(f, ctx.finding_texts,
                         {{"npu", std::to_string(key.first)}, {"chip", std::to_string(key.second)},
                          {"temp", std::to_string(*r.temp_c)}, {"alarm", fmt::format("{:.0f}", alarm)}});
    f.value("npu", std::to_string(key.first))
        .value("chip", std::to_string(key.second))
        .value("temp_c", std::to_string(*r.temp_c))
        .value("alarm_c", fmt::format("{:.0f}", alarm))
        .value("readings", std::to_string(h.second.size()));
    f.evidence = h.second;
    out.push_back(std::move(f));
  }
}

// The host's CPUs contended: PSI some avg10, the 1-minute load above the online CPUs, or a
// selected (NPU) process whose main thread was mostly switched out by force.
void cpu_contention(const BundleFacts& b, const AnalysisContext& ctx, const SlowLimits& lim, std::vector<Finding>& out) {
  std::vector<std::string> why;
  std::vector<EvidenceRef> ev;
  Finding f;
  const auto& c = b.load.cpu;
  double psi_limit = lim.value("psi_some_avg10_pct").value_or(20);
  double load_limit = lim.value("load_per_cpu").value_or(1.0);
  if (c && c->psi_some_avg10 && *c->psi_some_avg10 >= psi_limit) {
    why.push_back(fmt::format("CPU pressure some avg10={:.2f} % (limit {:.0f} %)", *c->psi_some_avg10, psi_limit));
    ev.push_back(c->psi_evidence);
    f.value("psi_some_avg10", fmt::format("{:.2f}", *c->psi_some_avg10));
  }
  if (c && c->load1 && c->online_cpus && *c->load1 > load_limit * static_cast<double>(*c->online_cpus)) {
    why.push_back(fmt::format("1-minute load {:.2f} above {} online CPUs", *c->load1, *c->online_cpus));
    ev.push_back(c->load_evidence);
    ev.push_back(c->online_evidence);
    f.value("load1", fmt::format("{:.2f}", *c->load1)).value("online_cpus", std::to_string(*c->online_cpus));
  }
  double share_limit = lim.value("nonvoluntary_share").value_or(0.5);
  double min_switches = lim.value("min_switches").value_or(1000);
  std::vector<std::string> pids;
  for (const auto& s : b.load.sched) {
    bool forced = false;
    std::string figures;
    if (s.voluntary && s.nonvoluntary) {
      double total = static_cast<double>(*s.voluntary + *s.nonvoluntary);
      if (total >= min_switches && static_cast<double>(*s.nonvoluntary) / total > share_limit) {
        forced = true;
        figures = fmt::format("{} of {} context switches forced", *s.nonvoluntary, *s.voluntary + *s.nonvoluntary);
        ev.push_back(s.switches_evidence);
      }
    }
    if (s.run_ns && s.wait_ns && *s.run_ns > 0 && *s.wait_ns > *s.run_ns) {
      forced = true;
      figures += fmt::format("{}waited {:.1f} s for a CPU against {:.1f} s on one", figures.empty() ? "" : "; ",
                             static_cast<double>(*s.wait_ns) / 1e9, static_cast<double>(*s.run_ns) / 1e9);
      ev.push_back(s.schedstat_evidence);
    }
    if (!forced) continue;
    why.push_back(fmt::format("pid {}: {}", s.pid, figures));
    pids.push_back(std::to_string(s.pid));
  }
  if (why.empty()) return;
  f.id = "slow-rank/cpu-contention";
  f.host = b.host;
  f.severity = Severity::warning;
  f.confidence = why.size() > 1 ? Confidence::medium : Confidence::low;
  std::string joined;
  for (const auto& w : why) joined += (joined.empty() ? "" : "; ") + w;
  f.observed = "At collection time: " + joined + ".";
  std::string pid_list;
  for (const auto& p : pids) pid_list += (pid_list.empty() ? "" : ",") + p;
  render_finding_words(f, ctx.finding_texts, {{"host", b.host.empty() ? std::string("this host") : b.host}});
  f.value("pids", pid_list);
  f.evidence = ev;
  out.push_back(std::move(f));
}

}  // namespace

void analyze_slow_rank(const AnalysisContext& ctx, std::vector<Finding>& out) {
  const SlowLimits& lim = slow_limits_for(ctx.options.knowledge_dir);
  for (const auto& b : ctx.evidence.bundles) {
    downclocked(b, ctx, lim, out);
    over_temperature(b, ctx, lim, out);
    cpu_contention(b, ctx, lim, out);
  }
}

}  // namespace triage
