#include "cli/timeline_subset.h"

#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <set>

namespace triage::cli {

namespace {

bool names_rank(const std::string* value, int64_t rank) {
  if (!value) return false;
  int64_t n = 0;
  auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), n);
  return ec == std::errc() && end == value->data() + value->size() && n == rank;
}

// A rank is a process whose environment states it (RANK, else RANK_ID, as the node summary
// reads it): its pids, and its device (DEVICE_ID) for events that carry a device and no pid.
struct RankMembers {
  std::set<int64_t> pids, devices;
};

RankMembers rank_members(const EvidenceSet& evidence, int64_t rank) {
  RankMembers m;
  for (const BundleFacts& b : evidence.bundles)
    for (const auto& [pid, p] : b.processes.by_pid) {
      const std::string* stated = p.env("RANK");
      if (!stated) stated = p.env("RANK_ID");
      if (!names_rank(stated, rank)) continue;
      m.pids.insert(pid);
      if (const std::string* d = p.env("DEVICE_ID")) {
        int64_t device = 0;
        if (std::from_chars(d->data(), d->data() + d->size(), device).ec == std::errc()) m.devices.insert(device);
      }
    }
  return m;
}

}  // namespace

std::string apply_timeline_subset(const TimelineSubset& s, const EvidenceSet& evidence, Timeline& t) {
  if (s.empty()) return "";
  std::optional<RE2> pattern;
  if (!s.grep.empty()) {
    RE2::Options options;
    options.set_log_errors(false);
    pattern.emplace(s.grep, options);
    if (!pattern->ok()) return "--grep: " + pattern->error();
  }
  RankMembers rank = s.rank ? rank_members(evidence, *s.rank) : RankMembers{};
  auto keep = [&](const TimelineEvent& e) {
    if (s.pid && e.pid != s.pid) return false;
    if (s.device && e.device != s.device) return false;
    if (s.rank) {
      bool by_pid = e.pid && rank.pids.count(*e.pid);
      bool by_device = !e.pid && e.device && rank.devices.count(*e.device);
      if (!by_pid && !by_device) return false;
    }
    return !pattern || RE2::PartialMatch(e.message, *pattern);
  };
  auto gone = std::stable_partition(t.events.begin(), t.events.end(), keep);
  t.filtered_out += static_cast<uint64_t>(t.events.end() - gone);
  t.events.erase(gone, t.events.end());
  return "";
}

}  // namespace triage::cli
