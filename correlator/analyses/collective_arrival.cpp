// collective/late-arrival. Communicator creation is collective: every rank waits at it for the
// others for HCCL_CONNECT_TIMEOUT. A rank held back by its own work (loading more data, a slow
// start) that arrives later than that makes every rank's creation fail, and each rank's error
// then looks like a link that could not be set up. Only the ranks' INFO `Entry-` records, their
// times compared, tell it (HCCL's fault-diagnosis guide, cluster negotiation stage).
#include "correlator/analyses/collective_arrival.h"

#include <fmt/format.h>

#include <cstdlib>
#include <map>

namespace triage {
namespace {

struct Arrival {
  int64_t us = 0;
  std::string who;  // "pid 4242 (rank 3)"
  EvidenceRef evidence;
};

// HCCL_CONNECT_TIMEOUT in seconds: the largest value a collected process set, or nullopt.
std::optional<int64_t> configured_timeout(const EvidenceSet& evidence) {
  std::optional<int64_t> out;
  for (const auto& b : evidence.bundles)
    for (const auto& [pid, p] : b.processes.by_pid)
      if (const std::string* v = p.env("HCCL_CONNECT_TIMEOUT")) {
        char* end = nullptr;
        long long s = std::strtoll(v->c_str(), &end, 10);
        if (end != v->c_str() && *end == '\0' && s > 0 && (!out || s > *out)) out = s;
      }
  return out;
}

}  // namespace

void late_arrival(const EvidenceSet& evidence, const CollectiveClasses& classes, const SlowLimits& limits,
                  const FindingTexts& texts, std::vector<Finding>& out) {
  // call -> who -> the earliest arrival of that rank.
  std::map<std::string, std::map<std::string, Arrival>> calls;
  std::map<std::string, std::string> host_of;
  for (const auto& b : evidence.bundles)
    for (const auto& h : b.logs.signature_hits) {
      std::string key = capture_of(h, kArrivalKeyCapture);
      if (key.empty() || !h.time.valid || classes.of_signature(h.id) != "collective/late-arrival") continue;
      std::string rank = capture_of(h, "rank");
      std::string who = h.pid ? fmt::format("pid {}", *h.pid) : h.evidence.entry;
      if (!rank.empty()) who += fmt::format(" (rank {})", rank);
      int64_t us = civil_to_epoch_us(h.time.civil);
      auto [it, fresh] = calls[key].try_emplace(who, Arrival{us, who, h.evidence});
      if (!fresh && us < it->second.us) it->second = Arrival{us, who, h.evidence};
      host_of.try_emplace(key, b.host);
    }
  std::optional<int64_t> configured = configured_timeout(evidence);
  std::optional<double> fallback = limits.value("hccl_connect_timeout_s");
  if (!configured && !fallback) return;
  int64_t limit_s = configured ? *configured : static_cast<int64_t>(*fallback);
  for (const auto& [key, ranks] : calls) {
    if (ranks.size() < 2) continue;
    const Arrival* first = nullptr;
    const Arrival* last = nullptr;
    for (const auto& [who, a] : ranks) {
      if (!first || a.us < first->us) first = &a;
      if (!last || a.us > last->us) last = &a;
    }
    int64_t gap_s = (last->us - first->us) / 1000000;
    if (gap_s <= limit_s) continue;
    Finding f;
    f.id = "collective/late-arrival";
    f.host = host_of[key];
    f.severity = Severity::error;
    f.confidence = configured ? Confidence::high : Confidence::medium;
    f.evidence = {first->evidence, last->evidence};
    f.observed = fmt::format(
        "{} ranks reached the creation of communicator {}; {} arrived {} s after the first ({}), longer "
        "than HCCL_CONNECT_TIMEOUT {} s ({}).",
        ranks.size(), key, last->who, gap_s, first->who, limit_s,
        configured ? "as the job set it" : "the default: the job's environment was not collected");
    f.value("communicator", key)
        .value("late", last->who)
        .value("first", first->who)
        .value("gap_s", std::to_string(gap_s))
        .value("connect_timeout_s", std::to_string(limit_s))
        .value("connect_timeout_from", configured ? "environment" : "default");
    render_finding_words(f, texts);
    out.push_back(std::move(f));
  }
}

}  // namespace triage
