#include "correlator/passes/process_ranks.h"

#include <optional>
#include <set>

namespace triage {
namespace {

std::optional<int64_t> parse_rank(const std::string* v) {
  if (!v || v->empty() || v->size() > 9) return std::nullopt;
  int64_t r = 0;
  for (char c : *v) {
    if (c < '0' || c > '9') return std::nullopt;
    r = r * 10 + (c - '0');
  }
  return r;
}

}  // namespace

RanksByProcess ranks_from_environ(const EvidenceSet& evidence) {
  RanksByProcess out;
  std::set<std::pair<std::string, int64_t>> conflicting;
  for (const auto& b : evidence.bundles)
    for (const auto& entry : b.processes.by_pid) {
      const std::string* v = entry.second.env("RANK");
      if (!v) v = entry.second.env("RANK_ID");
      std::optional<int64_t> rank = parse_rank(v);
      if (!rank) continue;
      std::pair<std::string, int64_t> key{b.host, entry.first};
      auto [it, fresh] = out.emplace(key, *rank);
      if (!fresh && it->second != *rank) conflicting.insert(key);
    }
  for (const auto& k : conflicting) out.erase(k);
  return out;
}

}  // namespace triage
