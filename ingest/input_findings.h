#pragma once
// Findings the input stage raises about the input itself (ids in docs/findings/input.md):
// damage, unsafe member names, limits that cut reading, unreadable members.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/finding.h"

namespace triage {

struct DamageAt {
  std::string input;    // the path the user gave
  std::string entry;    // display name of the entry ("" = between entries)
  std::string path;     // bundle path of the entry
  uint64_t offset = 0;  // decompressed bytes of the entry read before the damage
  uint64_t stored_offset = 0;  // stored bytes read (archive offset for input-level damage)
  std::string message;
  bool input_level = false;  // between entries: reading of the whole input stopped here
  bool stops_input = false;  // in an entry of an archive: later entries were not read
};
Finding input_damaged_finding(const DamageAt& at);

struct NamedEntry {
  std::string display;  // entry as shown
  std::string detail;   // raw name, reason, message
};
// The entries one finding names: all counted, only the first kMaxNamed kept (a finding shows
// no more), so a million unsafe names cost a count, not a million rows.
struct NamedEntries {
  static constexpr size_t kMaxNamed = 20;
  std::vector<NamedEntry> first;
  size_t total = 0;
  void add(std::string display, std::string detail) {
    ++total;
    if (first.size() < kMaxNamed) first.push_back({std::move(display), std::move(detail)});
  }
  bool empty() const { return total == 0; }
};
Finding unsafe_names_finding(const std::string& input, const std::vector<NamedEntry>& names, size_t total);
// Members stored under a name an earlier member already had (tar -r, zip append, repacking).
Finding duplicate_members_finding(const std::string& input, const std::vector<NamedEntry>& names, size_t total);
Finding unreadable_finding(const std::string& input, const std::vector<NamedEntry>& entries, size_t total);
Finding archive_warning_finding(const std::string& input, const std::vector<NamedEntry>& entries, size_t total);
Finding parser_error_finding(const std::string& entry, std::string_view kind, std::string_view what);

Finding total_bytes_limit_finding(const std::string& entry, uint64_t limit, size_t inputs_not_read);
Finding entry_bytes_limit_finding(const std::string& input, const std::vector<NamedEntry>& entries,
                                  size_t total, uint64_t limit);
Finding entries_limit_finding(const std::string& input, uint64_t limit, const std::string& last_entry);

struct OverlongSample {
  std::string entry;
  uint64_t line = 0, offset = 0, length = 0;
};
Finding overlong_lines_finding(const std::string& input, const std::vector<OverlongSample>& samples,
                               uint64_t total, uint64_t limit);

}  // namespace triage
