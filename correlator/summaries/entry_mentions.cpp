#include "correlator/summaries/entry_mentions.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>
#include <string_view>

namespace triage {
namespace {

void add_value(EntryMentions::Values& v, const std::string& value) {
  ++v.total;  // the caller passes each distinct value once
  if (v.shown.size() < EntryMentions::kMaxShown) v.shown.push_back(value);
}

EntryMentions::Values* values_for(EntryMentions& m, std::string_view key) {
  if (key == "pid") return &m.pids;
  if (key == "device") return &m.devices;
  if (key == "rank") return &m.ranks;
  if (key == "component") return &m.components;
  if (key == "version") return &m.versions;
  return nullptr;
}

// A plog or device-log entry states its first and last time without a line (line 0): those
// span the whole entry, so they win over the times of single lines. Their texts share one
// fixed-width format, which sorts as it runs. Of two times on one line the longer wins: the
// listing adds a CANN time cut to its seconds too.
void note_time(EntryMentions& m, const FactRow& r, bool& spanned) {
  if (r.line == 0) {
    if (!spanned) {
      spanned = true;
      m.first_time = m.last_time = r.value;
      m.first_time_line = m.last_time_line = 0;
      return;
    }
    auto longer_or_before = [&](const std::string& cur) {
      return r.value.size() > cur.size() || (r.value.size() == cur.size() && r.value < cur);
    };
    auto longer_or_after = [&](const std::string& cur) {
      return r.value.size() > cur.size() || (r.value.size() == cur.size() && r.value > cur);
    };
    if (longer_or_before(m.first_time)) m.first_time = r.value;
    if (longer_or_after(m.last_time)) m.last_time = r.value;
    return;
  }
  if (spanned) return;
  if (m.first_time.empty() || r.line < m.first_time_line ||
      (r.line == m.first_time_line && r.value.size() > m.first_time.size())) {
    m.first_time = r.value;
    m.first_time_line = r.line;
  }
  if (m.last_time.empty() || r.line > m.last_time_line ||
      (r.line == m.last_time_line && r.value.size() > m.last_time.size())) {
    m.last_time = r.value;
    m.last_time_line = r.line;
  }
}

}  // namespace

namespace {

// Adds the mentions of rows sorted by entry, then line (first seen is first).
class MentionBuilder {
 public:
  explicit MentionBuilder(std::vector<EntryMentions>& out) : out_(out) {}
  void add(const FactRow& r) {
    if (r.entry.empty()) return;
    const bool is_time = r.key == "time";
    // A rank of -1 is torch_npu's "no rank": it names nothing.
    if (r.key == "rank" && r.value == "-1") return;
    if (!is_time && !names_an_entry_mention(r.key)) return;  // codes, operators: findings cite those
    if (out_.empty() || out_.back().path != r.entry) {
      flush();
      out_.emplace_back();
      out_.back().path = r.entry;
      seen_.clear();
      spanned_ = false;
    }
    EntryMentions& m = out_.back();
    if (is_time)
      note_time(m, r, spanned_);
    else if (r.key == "device" && is_pci_address(r.value))
      pci_.push_back(r.value);  // after the entry's device ids: a second name of a chip
    else if (seen_.emplace(r.key, r.value).second)
      add_value(*values_for(m, r.key), r.value);
  }
  // Adds the current entry's deferred PCI addresses; call once after the last row.
  void flush() {
    if (!out_.empty())
      for (const auto& v : pci_)
        if (seen_.emplace("device", v).second) add_value(out_.back().devices, v);
    pci_.clear();
  }

 private:
  // "0000:c1:00.0": domain, bus, device and function of a PCIe address.
  static bool is_pci_address(std::string_view v) {
    if (v.size() != 12 || v[4] != ':' || v[7] != ':' || v[10] != '.') return false;
    for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11})
      if (!std::isxdigit(static_cast<unsigned char>(v[i]))) return false;
    return true;
  }
  std::vector<std::string> pci_;
  std::vector<EntryMentions>& out_;
  std::set<std::pair<std::string, std::string>> seen_;  // (key, value) of the current entry
  bool spanned_ = false;                                // the current entry states its span
};

void sort_by_path(std::vector<EntryMentions>& out) {
  std::sort(out.begin(), out.end(), [](const EntryMentions& a, const EntryMentions& b) { return a.path < b.path; });
}

}  // namespace

std::vector<EntryMentions> entry_mentions(const std::vector<FactRow>& rows) {
  std::vector<EntryMentions> out;
  MentionBuilder b(out);
  for (const FactRow& r : rows) b.add(r);  // sorted by entry, then line: first seen is first
  b.flush();
  sort_by_path(out);
  return out;
}

std::vector<EntryMentions> entry_mentions(const BundleFacts& facts, FactScope scope) {
  std::vector<EntryMentions> out;
  MentionBuilder b(out);
  for_each_entry_rows(
      facts, scope, [&](const std::vector<FactRow>& rows) {
        for (const FactRow& r : rows) b.add(r);
      },
      RowKeep::mentions);
  b.flush();
  sort_by_path(out);
  return out;
}

}  // namespace triage
