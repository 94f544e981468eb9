// localization-mode: whether each NPU process ran in the synchronous localisation mode
// (ASCEND_LAUNCH_BLOCKING=1, TASK_QUEUE_ENABLE=0) according to its own environment, and
// command-line switches turned off with a string (`--amp False`) that argparse `type=bool`
// reads as True.
#include "correlator/analyses/localization_mode.h"

#include <fmt/format.h>

#include <array>
#include <map>
#include <tuple>

namespace triage {
namespace {

// A hang of this process: a stream reporting the same queue head at least twice (a head
// that moves is a slow step, not a hang), or a stream synchronize timeout.
bool hung(const BundleFacts& b, int64_t pid) {
  std::map<std::tuple<int64_t, int64_t, int64_t>, int> same;
  for (const auto& s : b.logs.stalls)
    if (s.origin.pid == pid && ++same[{s.stream_id, s.task_id, s.sq_head.value_or(-1)}] >= 2) return true;
  for (const auto& s : b.logs.sync_timeouts)
    if (s.origin.pid == pid) return true;
  return false;
}

const EvidenceRef* first_hang_evidence(const BundleFacts& b, int64_t pid) {
  for (const auto& s : b.logs.stalls)
    if (s.origin.pid == pid) return &s.evidence;
  for (const auto& s : b.logs.sync_timeouts)
    if (s.origin.pid == pid) return &s.evidence;
  return nullptr;
}

EvidenceRef environ_evidence(const BundleFacts& b, const ProcessInfo& p) {
  for (const auto& e : p.evidence)
    if (e.entry.find("environ") != std::string::npos) return e;
  return make_evidence(fmt::format("processes/{}/environ", p.pid), 0, 0, "");
}

void mode(const FindingTexts& texts, const BundleFacts& b, const ProcessInfo& p, std::vector<Finding>& out) {
  const std::string* blocking = p.env("ASCEND_LAUNCH_BLOCKING");
  const std::string* queue = p.env("TASK_QUEUE_ENABLE");
  bool blocking_on = blocking && *blocking == "1";
  bool queue_off = blocking_on || (queue && *queue == "0");  // blocking forces the queue off
  std::string env_text = fmt::format("ASCEND_LAUNCH_BLOCKING={}, TASK_QUEUE_ENABLE={}",
                                     blocking ? *blocking : "(unset)", queue ? *queue : "(unset)");
  Finding f;
  f.host = b.host;
  f.evidence.push_back(environ_evidence(b, p));
  f.value("pid", std::to_string(p.pid))
      .value("ASCEND_LAUNCH_BLOCKING", blocking ? *blocking : "")
      .value("TASK_QUEUE_ENABLE", queue ? *queue : "");
  if (blocking_on) {
    f.id = "localization-mode/active";
    f.severity = Severity::warning;
    f.confidence = Confidence::high;
    f.observed = fmt::format("The process's own environment has {}.", env_text);
    render_finding_words(f, texts, {{"pid", std::to_string(p.pid)}});
    out.push_back(std::move(f));
    return;
  }
  if (!hung(b, p.pid)) return;
  if (const auto* ev = first_hang_evidence(b, p.pid)) f.evidence.push_back(*ev);
  f.id = "localization-mode/advice";
  f.severity = Severity::info;
  f.confidence = Confidence::high;
  f.observed = fmt::format("The process reports a stalled stream or sync timeout; its own "
                           "environment has {}{}.",
                           env_text, queue_off ? "" : " (asynchronous dispatch)");
  render_finding_words(f, texts, {{"pid", std::to_string(p.pid)}});
  out.push_back(std::move(f));
}

// Options whose 0 is an index, not a switch (`--local-rank=0`, `--seed 0`).
bool integer_option(std::string_view option) {
  static constexpr std::array<std::string_view, 7> kIndexWords = {"rank", "seed", "port", "device",
                                                                  "gpu", "npu", "node"};
  for (auto w : kIndexWords)
    if (option.find(w) != std::string_view::npos) return true;
  return false;
}

// `--amp False`, `--pin-memory=false`, `--workers 0`: value given to an option as a string.
void bool_arguments(const FindingTexts& texts, const BundleFacts& b, const ProcessInfo& p,
                    std::vector<Finding>& out) {
  const auto& argv = p.argv;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.rfind("--", 0) != 0 || a.size() < 3) continue;
    std::string option = a, value;
    size_t eq = a.find('=');
    if (eq != std::string::npos) {
      option = a.substr(0, eq), value = a.substr(eq + 1);
    } else if (i + 1 < argv.size()) {
      value = argv[i + 1];
    }
    bool word = value == "False" || value == "false" || value == "FALSE";
    if (!word && (value != "0" || integer_option(option))) continue;
    Finding f;
    f.id = "localization-mode/bool-argument";
    f.host = b.host;
    // "0" is also a normal integer value; only the word is a strong hint.
    f.severity = word ? Severity::warning : Severity::info;
    f.confidence = word ? Confidence::medium : Confidence::low;
    f.observed = fmt::format("The command line of process {} gives {} the value \"{}\".", p.pid,
                             option, value);
    render_finding_words(f, texts,
                         {{"pid", std::to_string(p.pid)}, {"option", option}, {"value", value},
                          {"option_name", option.substr(2)}});
    f.evidence.push_back(make_evidence(fmt::format("processes/{}/cmdline", p.pid), 0, 0,
                                       fmt::format("{} {}", option, value)));
    for (const auto& e : p.evidence)
      if (e.entry.find("cmdline") != std::string::npos) f.evidence.front() = e;
    f.value("pid", std::to_string(p.pid)).value("option", option).value("value", value);
    out.push_back(std::move(f));
  }
}

}  // namespace

void analyze_localization_mode(const AnalysisContext& ctx, std::vector<Finding>& out) {
  for (const auto& b : ctx.evidence.bundles)
    for (const auto& [pid, p] : b.processes.by_pid) {
      if (p.has_environ) mode(ctx.finding_texts, b, p, out);
      if (p.has_cmdline) bool_arguments(ctx.finding_texts, b, p, out);
    }
}

}  // namespace triage
