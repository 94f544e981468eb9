// probe-results: each probe runs in its own process with its own sync and deadline, so the
// set says which device paths work outside the model. Ids: docs/findings/device.md; words:
// knowledge/findings/device.tsv.
#include "correlator/analyses/probe_results.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

namespace triage {
namespace {

enum class Outcome { pass, timed_out, failed, unknown };

Outcome outcome_of(const ProbeResult& p) {
  if (!p.has_json) return Outcome::unknown;
  if (p.timed_out.value_or(false) || p.rc == 124 || p.rc == 137) return Outcome::timed_out;
  if (p.rc == 0) return Outcome::pass;
  if (p.rc) return Outcome::failed;
  return Outcome::unknown;
}

std::string_view to_string(Outcome o) {
  switch (o) {
    case Outcome::pass: return "pass";
    case Outcome::timed_out: return "timed out";
    case Outcome::failed: return "failed";
    case Outcome::unknown: return "unknown";
  }
  return "unknown";
}

bool is_rng_probe(const std::string& name) {
  return name == "rand" || name == "randn" || name == "randint";
}

std::string join(const std::vector<std::string>& v) { return fmt::format("{}", fmt::join(v, ", ")); }

std::string describe(const ProbeResult& p, Outcome o) {
  std::string s = fmt::format("{}: {}", p.name, to_string(o));
  if (p.rc) s += fmt::format(" (rc {}", *p.rc);
  if (p.duration_ms) s += fmt::format("{}{} ms", p.rc ? ", " : " (", *p.duration_ms);
  if (p.rc || p.duration_ms) s += ")";
  if (p.error_code) s += fmt::format(", error code {}", *p.error_code);
  return s;
}

void add_evidence(Finding& f, const ProbeResult& p) {
  if (!p.evidence.entry.empty()) f.evidence.push_back(p.evidence);
  if (!p.stderr_evidence.entry.empty()) f.evidence.push_back(p.stderr_evidence);
}

// The probes of one bundle (probes/*.json) and the one finding they give, in the style of
// module_provenance.cpp: run() tallies the outcomes, then one method per finding.
class ProbeSet {
 public:
  ProbeSet(const BundleFacts& b, const FindingTexts& texts, std::vector<Finding>& out)
      : b_(b), texts_(texts), out_(out) {}

  void run() {
    for (const auto& p : b_.devices.probes)
      if (p.has_json) probes_.push_back(&p);
    if (probes_.empty()) return;
    std::sort(probes_.begin(), probes_.end(), [](const ProbeResult* a, const ProbeResult* c) {
      return a->started_utc_us.value_or(0) < c->started_utc_us.value_or(0);
    });
    Finding f = tally();
    if (all_fast_507033_) no_usable_device(std::move(f));
    else if (timed_out_.empty() && failed_.empty()) all_pass(std::move(f));
    else reproduces_outside_model(std::move(f));
  }

 private:
  // Outcomes by name, and the part of the finding every outcome shares.
  Finding tally() {
    std::vector<std::string> lines;
    std::set<int64_t> devices;
    for (const auto* p : probes_) {
      Outcome o = outcome_of(*p);
      lines.push_back(describe(*p, o));
      if (p->device) devices.insert(*p->device);
      if (o == Outcome::pass) passed_.push_back(p->name);
      if (o == Outcome::timed_out) timed_out_.push_back(p->name);
      if (o == Outcome::failed) failed_.push_back(p->name);
      if (o != Outcome::failed || p->error_code != 507033) all_fast_507033_ = false;
    }
    std::string device_text = fmt::format("{}", fmt::join(devices, ", "));
    Finding f;
    f.host = b_.host;
    f.observed = fmt::format("{} probes on device {}: {}.", probes_.size(),
                             device_text.empty() ? "?" : device_text, join(lines));
    f.value("probes", std::to_string(probes_.size()))
        .value("passed", join(passed_))
        .value("timed_out", join(timed_out_))
        .value("failed", join(failed_))
        .value("device", device_text);
    for (const auto* p : probes_) add_evidence(f, *p);
    return f;
  }

  void no_usable_device(Finding f) {
    f.id = "probe-results/no-usable-device";
    f.severity = Severity::error;
    f.confidence = Confidence::high;
    render_finding_words(f, texts_);
    if (b_.devices.info && !b_.devices.info->failure.empty()) {  // independent: DCMI, not ACL
      f.observed += fmt::format(" npu-smi info fails as well: \"{}\".", b_.devices.info->failure);
      f.evidence.push_back(b_.devices.info->evidence);
    }
    out_.push_back(std::move(f));
  }

  void all_pass(Finding f) {
    if (passed_.size() != probes_.size()) return;  // some outcomes unreadable: nothing to conclude
    f.id = "probe-results/all-pass";
    f.severity = Severity::info;
    f.confidence = Confidence::high;
    render_finding_words(f, texts_);
    out_.push_back(std::move(f));
  }

  void reproduces_outside_model(Finding f) {
    std::vector<std::string> not_passed = timed_out_;
    not_passed.insert(not_passed.end(), failed_.begin(), failed_.end());
    bool rng_only = !not_passed.empty() &&
                    std::all_of(not_passed.begin(), not_passed.end(), is_rng_probe);
    // Probes after the first failing one on the same device are not independent of it: a
    // device left stuck by the first explains the rest as well.
    const ProbeResult* first_bad = nullptr;
    std::vector<std::string> after_first;
    for (const auto* p : probes_) {
      Outcome o = outcome_of(*p);
      if (o != Outcome::timed_out && o != Outcome::failed) continue;
      if (!first_bad) first_bad = p;
      else if (p->device == first_bad->device) after_first.push_back(p->name);
    }
    f.id = "probe-results/reproduces-outside-model";
    f.severity = Severity::error;
    f.confidence = passed_.empty() ? Confidence::medium : Confidence::high;
    FindingWords words = {{"failing", join(not_passed)},
                          {"passing", join(passed_)},
                          {"independent", first_bad ? first_bad->name : ""},
                          {"dependent", join(after_first)}};
    render_finding_words(f, texts_, words, passed_.empty() ? "none-pass" : "");
    // The limits that apply come before the finding's own, each the does_not_prove of a
    // variant row, so the sentences are data but can add up.
    std::string limits;
    auto limit = [&](std::string_view variant) {
      Finding part;
      part.id = f.id;
      render_finding_words(part, texts_, words, variant);
      limits += part.does_not_prove + " ";
    };
    if (rng_only) limit("rng-only");
    if (first_bad && !after_first.empty()) limit("dependent");
    if (!timed_out_.empty()) limit("timed-out");
    f.does_not_prove = limits + f.does_not_prove;
    f.value("independent_failure", first_bad ? first_bad->name : "")
        .value("dependent_failures", join(after_first))
        .value("rng_only", rng_only ? "1" : "0");
    out_.push_back(std::move(f));
  }

  const BundleFacts& b_;
  const FindingTexts& texts_;
  std::vector<Finding>& out_;
  std::vector<const ProbeResult*> probes_;
  std::vector<std::string> passed_, timed_out_, failed_;
  bool all_fast_507033_ = true;
};

// A stream that reports the same queue head at least twice: the stall analysis proper is
// elsewhere; here it only gates the AICore-idle observation. The usage samples are taken at
// collection time, so only a stalled process still alive then (in processes/) counts; without
// any process facts the latest stall of the device is taken.
std::map<int64_t, const StallReport*> stalled_devices(const BundleFacts& b) {
  std::map<std::tuple<int64_t, int64_t, int64_t, int64_t>, std::vector<const StallReport*>> by;
  for (const auto& s : b.logs.stalls)
    by[{s.origin.pid, s.stream_id, s.task_id, s.sq_head.value_or(-1)}].push_back(&s);
  bool have_processes = !b.processes.by_pid.empty();
  std::map<int64_t, const StallReport*> out;
  for (const auto& [key, v] : by) {
    if (v.size() < 2 || !v.front()->device_id) continue;
    if (have_processes && !b.processes.by_pid.count(v.front()->origin.pid)) continue;
    const StallReport*& slot = out[*v.front()->device_id];
    if (!slot || civil_to_epoch_us(slot->time.civil) < civil_to_epoch_us(v.back()->time.civil))
      slot = v.back();
  }
  return out;
}

void aicore_idle(const BundleFacts& b, const FindingTexts& texts, std::vector<Finding>& out) {
  auto stalled = stalled_devices(b);
  for (const auto& [device, report] : stalled) {
    int64_t npu = device, chip = 0;
    for (const auto& m : b.devices.map)
      if (m.logic_id == device) npu = m.npu, chip = m.chip;
    std::vector<const NpuUsageSample*> samples;
    for (const auto& u : b.devices.usages)
      if (u.npu == npu && u.chip.value_or(0) == chip && u.aicore_pct) samples.push_back(&u);
    if (samples.size() < 1) continue;
    bool idle = std::all_of(samples.begin(), samples.end(),
                            [](const NpuUsageSample* u) { return *u->aicore_pct == 0; });
    if (!idle) continue;
    Finding f;
    f.id = "probe-results/aicore-idle-during-stall";
    f.host = b.host;
    f.severity = Severity::warning;
    f.confidence = Confidence::medium;
    f.observed = fmt::format(
        "{} npu-smi usage sample(s) of NPU {} chip {} show Aicore Usage Rate 0 %; pid {} stream {} "
        "reports the same queue head (task_id={}, sqHead={}) repeatedly.",
        samples.size(), npu, chip, report->origin.pid, report->stream_id, report->task_id,
        report->sq_head.value_or(-1));
    render_finding_words(f, texts, {{"device", std::to_string(device)}});
    f.value("device", std::to_string(device))
        .value("npu", std::to_string(npu))
        .value("samples", std::to_string(samples.size()));
    for (const auto* u : samples) f.evidence.push_back(u->evidence);
    f.evidence.push_back(report->evidence);
    out.push_back(std::move(f));
  }
}

}  // namespace

void analyze_probe_results(const AnalysisContext& ctx, std::vector<Finding>& out) {
  const EvidenceSet& evidence = ctx.evidence;
  for (const auto& b : evidence.bundles) {
    ProbeSet(b, ctx.finding_texts, out).run();
    aicore_idle(b, ctx.finding_texts, out);
  }
}

}  // namespace triage
