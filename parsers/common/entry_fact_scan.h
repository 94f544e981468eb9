#pragma once
// Issue 36, facts anywhere: a reader offers every line it reads; the fact scanner
// (knowledge/fact-forms.tsv) asks its RE2::Set yes or no (no allocation), and reads the
// values of a line it says yes to only when the line's template (digits and hex masked) is
// not one of the last kTemplates seen, so a log that prints `rank 0 step N` on every line
// costs one read, not one per line. Each distinct (key, value) is kept once with its first
// line, at most kMaxPerKey per key and kMaxFacts per entry.
//
// The values are kept by entry (EvidenceRef::entry) in a store of the process, not in
// BundleFacts: a model header change rebuilds every reader, and this landed in a session
// that could not afford it. Moving them to LogFacts is a mechanical change (issue 36 notes).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/evidence.h"

namespace triage {

class FactScanner;

struct ScannedFact {
  std::string key;    // code, error_str, operator, pid, device, chip, core, rank, peer, version
  std::string value;  // as printed
  EvidenceRef evidence;
};

class EntryFactScan {
 public:
  static constexpr size_t kMaxFacts = 48;
  static constexpr size_t kMaxPerKey = 8;
  static constexpr size_t kTemplates = 64;
  // Entries the store keeps values of; a later entry's values are not kept. An entry gets a
  // place only with its first value, so a million files without one cost nothing.
  static constexpr size_t kMaxEntries = 16384;

  // `max_reads`: lines whose values are read, at most (the plog reader's bound: each read
  // runs the forms with captures, which RE2 may allocate for).
  explicit EntryFactScan(std::string_view entry, size_t max_reads = SIZE_MAX);
  void line(std::string_view text, uint64_t number, uint64_t offset);

 private:
  bool seen_template(std::string_view text);
  std::string_view entry_;
  std::vector<ScannedFact>* out_ = nullptr;  // the store's vector of this entry (stable), once it has one
  const FactScanner& scanner_;
  std::array<uint64_t, kTemplates> templates_{};
  size_t next_template_ = 0;
  size_t reads_ = 0, max_reads_;
};

// The values scanned in `entry` so far (empty when none), first line first.
std::vector<ScannedFact> scanned_facts(std::string_view entry);

}  // namespace triage
