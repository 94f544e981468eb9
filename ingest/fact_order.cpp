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

namespace {

// Every fact list that entries append to, but the kernel lines (ordered together, and
// counted apart). One list serves ordering and counting, so a new list is added once.
template <typename B, typename F>
void each_fact_list(B& b, F&& f) {
  f(b.system.evidence);
  for (auto& [pid, p] : b.processes.by_pid) f(p.evidence);
  auto& l = b.logs;
  f(l.stalls);
  f(l.sync_timeouts);
  f(l.error_codes);
  f(l.signature_hits);
  f(l.plog_entries);
  f(l.journal_cuts);
  f(l.kernel_entries);
  auto& m = b.modules;
  f(m.files);
  f(m.resident);
  f(m.loaded);
  f(m.kernels);
  f(m.modinfo);
  f(m.resolutions);
  f(m.dep_lines);
  f(m.dkms);
  f(m.initramfs);
  f(m.config);
  f(m.pci);
  if (m.device_nodes) f(*m.device_nodes);
  auto& d = b.devices;
  f(d.topologies);
  f(d.health);
  f(d.usages);
  f(d.probes);
  f(d.export_files);
  f(d.ras_events);
  f(d.memory_errors);
  f(b.load.readings);
  f(b.load.sched);
  auto& lib = b.libraries;
  f(lib.cann_files);
  f(lib.cann_index);
  f(lib.paths);
  f(b.network.rank_tables);
  f(b.network.stacks);
  f(b.events.boots);
  f(b.events.install);
}

}  // namespace

void order_facts_by_entry(BundleFacts& b) {
  EntryRanks r(b.inventory);
  each_fact_list(b, [&](auto& facts) { order(facts, r); });
  order_kernel_lines(b.logs, r);
}

size_t fact_count(const BundleFacts& b) {
  size_t n = b.processes.by_pid.size() + b.logs.kernel_events.size() + b.logs.kernel_info.lines.size() +
             b.logs.service_errors.size();
  each_fact_list(b, [&](const auto& facts) { n += facts.size(); });
  const PythonFacts& p = b.python;
  n += p.streams.size() + p.tracebacks.size() + p.torch_errors.size() + p.err_lines.size() +
       p.error_reports.size() + p.warnings.size() + p.job_events.size();
  return n;
}

}  // namespace triage
