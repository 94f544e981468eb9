#include "knowledge/wait_edges.h"

#include <set>

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"
#include "model/strings.h"

namespace triage {
namespace {

bool capture_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_alnum(c) && c != '_') return false;
  return true;
}

std::string find_capture(const Captures& caps, const std::string& name) {
  if (name.empty()) return {};
  for (const auto& [k, v] : caps)
    if (k == name) return v;
  return {};
}

}  // namespace

void split_address(std::string_view address, RankRef& into) {
  size_t slash = address.find('/');
  into.ip = std::string(address.substr(0, slash));
  into.device = slash == std::string_view::npos ? std::string() : std::string(address.substr(slash + 1));
}

const WaitEdgeRow* WaitEdges::of_signature(std::string_view id) const {
  for (const auto& r : rows)
    if (r.signature == id) return &r;
  return nullptr;
}

std::optional<WaitEdgeMatch> WaitEdges::edge(std::string_view signature, const Captures& caps) const {
  const WaitEdgeRow* row = of_signature(signature);
  if (!row) return std::nullopt;
  WaitEdgeMatch m;
  m.signature = row->signature;
  m.target.rank = find_capture(caps, row->target_rank);
  if (auto a = find_capture(caps, row->target_address); !a.empty()) split_address(a, m.target);
  if (auto d = find_capture(caps, row->target_device); !d.empty()) m.target.device = d;
  m.waiter.rank = find_capture(caps, row->waiter_rank);
  if (auto a = find_capture(caps, row->waiter_address); !a.empty()) split_address(a, m.waiter);
  if (auto d = find_capture(caps, row->waiter_device); !d.empty()) m.waiter.device = d;
  // HCCL writes "unknown" or a masked address ("10.*.*.*") when it does not know: no one named.
  if (m.target.ip.find('*') != std::string::npos) m.target.ip.clear(), m.target.device.clear();
  // HCCL's "no rank" (UINT32_MAX) names no one either.
  if (m.target.rank == "4294967295") m.target.rank.clear();
  if (m.target.empty()) return std::nullopt;
  return m;
}

WaitEdges parse_wait_edges(std::string_view content, const std::string& name, std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"signature",     "target_rank", "target_address",
                                                        "target_device", "waiter_rank", "waiter_address",
                                                        "waiter_device", "meaning"};
  WaitEdges out;
  std::set<std::string> seen;
  for_each_table_row(content, name, kHeader, errors, [&](const std::string& where, const auto& f) {
    WaitEdgeRow r;
    r.signature = std::string(f[0]), r.meaning = std::string(f[7]);
    std::string* cols[] = {&r.target_rank, &r.target_address, &r.target_device,
                           &r.waiter_rank, &r.waiter_address, &r.waiter_device};
    for (size_t i = 0; i < 6; ++i) {
      if (f[i + 1] == "-") continue;
      if (!capture_name(f[i + 1]))
        return errors.push_back(where + ": '" + std::string(f[i + 1]) + "' is no capture name (or -)");
      *cols[i] = std::string(f[i + 1]);
    }
    if (r.signature.empty() || r.meaning.empty()) return errors.push_back(where + ": signature and meaning are required");
    // A row with no target column names a line that is its own device's fault (an error CQE):
    // a root candidate, not a wait. A device alone is a device of the waiter's own server.
    if (!seen.insert(r.signature).second) return errors.push_back(where + ": duplicate signature " + r.signature);
    out.rows.push_back(std::move(r));
  });
  return out;
}

const WaitEdges& wait_edges_for(const std::string& dir) {
  return cached_table<WaitEdges>(kWaitEdgesFile, dir,
                                 [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
                                   return parse_wait_edges(c, n, e);
                                 });
}

}  // namespace triage
