#include "ingest/fact_order.h"

#include <algorithm>
#include <limits>
#include <string_view>
#include <unordered_map>

namespace triage {
namespace {

// Ranks of entries by the name facts carry.
class EntryRanks {
 public:
  explicit EntryRanks(const InventoryFacts& inventory) {
    std::vector<const InventoryEntry*> order;
    order.reserve(inventory.entries.size());
    for (const auto& e : inventory.entries) order.push_back(&e);
    std::stable_sort(order.begin(), order.end(), [](const InventoryEntry* a, const InventoryEntry* b) {
      return walk_order_less(a->info.path, b->info.path);
    });
    rank_.reserve(order.size());
    // Evidence names the entry by its display name; a few facts by its bundle path.
    for (size_t i = 0; i < order.size(); ++i) {
      rank_.emplace(order[i]->info.display, i);
      rank_.emplace(order[i]->info.path, i);
    }
  }
  // Facts whose entry is not in the inventory (made up by a finalize step) go last.
  size_t of(std::string_view display) const {
    auto it = rank_.find(std::string(display));
    return it == rank_.end() ? std::numeric_limits<size_t>::max() : it->second;
  }

 private:
  std::unordered_map<std::string, size_t> rank_;
};

template <typename T>
std::string_view entry_of(const T& x) {
  if constexpr (std::is_same_v<T, EvidenceRef>) return x.entry;
  else if constexpr (requires { x.evidence.entry; }) return x.evidence.entry;
  else if constexpr (requires { x.second.entry; }) return x.second.entry;
  else return x.entry;
}

// Stable: the facts of one entry keep the order their parser wrote them in.
template <typename T>
void order(std::vector<T>& facts, const EntryRanks& ranks) {
  if (facts.size() < 2) return;
  std::vector<std::pair<size_t, size_t>> keys;  // (rank, index): sorting moves no fact
  keys.reserve(facts.size());
  for (size_t i = 0; i < facts.size(); ++i) keys.emplace_back(ranks.of(entry_of(facts[i])), i);
  if (std::is_sorted(keys.begin(), keys.end())) return;  // a directory: already in walk order
  std::sort(keys.begin(), keys.end());
  std::vector<T> sorted;
  sorted.reserve(facts.size());
  for (const auto& k : keys) sorted.push_back(std::move(facts[k.second]));
  facts = std::move(sorted);
}

// Kernel events and compact info lines (KernelInfoLine) in one order, by entry and then as
// read; `seq` then numbers that order, so finalize merges the two lists as if they were one.
void order_kernel_lines(LogFacts& l, const EntryRanks& r) {
  order(l.kernel_events, r);
  auto& info = l.kernel_info;
  if (info.lines.empty()) {  // seq as the walk order, which the kernel dedupe keeps for ties
    for (size_t i = 0; i < l.kernel_events.size(); ++i) l.kernel_events[i].seq = static_cast<uint32_t>(i);
    return;
  }
  std::vector<size_t> name_rank(info.names.size());
  for (size_t i = 0; i < name_rank.size(); ++i) name_rank[i] = r.of(info.names[i]);
  auto by_rank = [&](const KernelInfoLine& a, const KernelInfoLine& b) {
    return name_rank[a.entry] < name_rank[b.entry];
  };
  // A directory is read in walk order: no sort, and no stable_sort buffer as large as the list.
  if (!std::is_sorted(info.lines.begin(), info.lines.end(), by_rank))
    std::stable_sort(info.lines.begin(), info.lines.end(), by_rank);
  auto& events = l.kernel_events;
  size_t i = 0, k = 0;
  uint32_t seq = 0;
  while (i < events.size() || k < info.lines.size()) {
    bool event_first = k == info.lines.size() ||
                       (i < events.size() && std::make_pair(r.of(events[i].evidence.entry), events[i].seq) <
                                                 std::make_pair(name_rank[info.lines[k].entry], info.lines[k].seq));
    if (event_first) events[i++].seq = seq++;
    else info.lines[k++].seq = seq++;
  }
}

}  // namespace

bool walk_order_less(std::string_view a, std::string_view b) {
  // Component by component, as bundle/directory_reader.cpp sorts each directory's names:
  // manifest.json first, then byte order ("a/x" before "a-b/x").
  while (!a.empty() && !b.empty()) {
    size_t ea = std::min(a.find('/'), a.size()), eb = std::min(b.find('/'), b.size());
    std::string_view ca = a.substr(0, ea), cb = b.substr(0, eb);
    if (ca != cb) {
      bool am = ca == "manifest.json", bm = cb == "manifest.json";
      if (am != bm) return am;
      return ca < cb;
    }
    a.remove_prefix(std::min(ea + 1, a.size()));
    b.remove_prefix(std::min(eb + 1, b.size()));
  }
  return a.size() < b.size();
}

void order_facts_by_entry(BundleFacts& b) {
  EntryRanks r(b.inventory);
  order(b.system.evidence, r);
  for (auto& [pid, p] : b.processes.by_pid) order(p.evidence, r);
  LogFacts& l = b.logs;
  order(l.stalls, r);
  order(l.sync_timeouts, r);
  order(l.error_codes, r);
  order(l.signature_hits, r);
  order(l.plog_entries, r);
  order_kernel_lines(l, r);
  order(l.journal_cuts, r);
  order(l.kernel_entries, r);
  ModuleFacts& m = b.modules;
  order(m.files, r);
  order(m.resident, r);
  order(m.loaded, r);
  order(m.kernels, r);
  order(m.modinfo, r);
  order(m.resolutions, r);
  order(m.dep_lines, r);
  order(m.dkms, r);
  order(m.initramfs, r);
  order(m.config, r);
  order(m.pci, r);
  if (m.device_nodes) order(*m.device_nodes, r);
  DeviceFacts& d = b.devices;
  order(d.topologies, r);
  order(d.health, r);
  order(d.usages, r);
  order(d.probes, r);
  order(d.export_files, r);
  order(d.ras_events, r);
  order(d.memory_errors, r);
  LibraryFacts& lib = b.libraries;
  order(lib.cann_files, r);
  order(lib.cann_index, r);
  order(lib.paths, r);
  order(b.network.rank_tables, r);
  order(b.network.stacks, r);
  order(b.events.boots, r);
  order(b.events.install, r);
}

}  // namespace triage
