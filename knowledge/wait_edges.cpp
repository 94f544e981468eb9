#include "knowledge/wait_edges.h"

#include <re2/re2.h>

#include <set>

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"

namespace triage {
namespace {

constexpr std::string_view kGroups[] = {"waiter_rank", "waiter_ip", "waiter_device",
                                        "target_rank", "target_ip", "target_device"};

std::string* field_of(WaitEdgeMatch& m, std::string_view group) {
  if (group == "waiter_rank") return &m.waiter.rank;
  if (group == "waiter_ip") return &m.waiter.ip;
  if (group == "waiter_device") return &m.waiter.device;
  if (group == "target_rank") return &m.target.rank;
  if (group == "target_ip") return &m.target.ip;
  if (group == "target_device") return &m.target.device;
  return nullptr;
}

std::optional<WaitEdgeMatch> match_row(const WaitEdgeRow& row, std::string_view line) {
  const RE2& re = *row.re;
  std::vector<re2::StringPiece> groups(static_cast<size_t>(re.NumberOfCapturingGroups()) + 1);
  if (!re.Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::UNANCHORED, groups.data(),
                static_cast<int>(groups.size())))
    return std::nullopt;
  WaitEdgeMatch m;
  m.row_id = row.id;
  for (const auto& [name, index] : re.NamedCapturingGroups())
    if (std::string* f = field_of(m, name); f && groups[static_cast<size_t>(index)].data())
      *f = std::string(groups[static_cast<size_t>(index)]);
  if (m.target.empty()) return std::nullopt;  // a line that names no one it waits on
  return m;
}

}  // namespace

std::optional<WaitEdgeMatch> WaitEdges::match(std::string_view line) const {
  for (const auto& row : rows)
    if (auto m = match_row(row, line)) return m;
  return std::nullopt;
}

WaitEdges parse_wait_edges(std::string_view content, const std::string& name, std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"id", "pattern", "match", "near_miss", "meaning"};
  WaitEdges out;
  std::set<std::string> ids;
  for_each_table_row(content, name, kHeader, errors, [&](const std::string& where, const auto& f) {
    WaitEdgeRow r{std::string(f[0]), std::string(f[1]), std::string(f[2]), std::string(f[3]), std::string(f[4]), {}};
    if (r.id.empty() || r.meaning.empty() || r.match.empty() || r.near_miss.empty())
      return errors.push_back(where + ": id, match, near_miss and meaning are required");
    if (!ids.insert(r.id).second) return errors.push_back(where + ": duplicate id " + r.id);
    auto re = std::make_shared<RE2>(r.pattern, RE2::Quiet);
    if (!re->ok()) return errors.push_back(where + ": pattern does not compile: " + re->error());
    bool target = false;
    for (const auto& [group, index] : re->NamedCapturingGroups()) {
      if (std::find(std::begin(kGroups), std::end(kGroups), group) == std::end(kGroups))
        return errors.push_back(where + ": unknown group " + group);
      target = target || group.starts_with("target_");
    }
    if (!target) return errors.push_back(where + ": the pattern names no target group");
    r.re = std::move(re);
    if (!match_row(r, r.match)) return errors.push_back(where + ": the pattern misses its match sample");
    if (match_row(r, r.near_miss)) return errors.push_back(where + ": the pattern holds its near miss");
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
