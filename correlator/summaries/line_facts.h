#pragma once
// What the fact scanner (knowledge/fact-forms.tsv, issue 36 "facts anywhere") finds in the
// lines a finding cites or accounts for: error codes, errorStr, pids, device/chip/core ids,
// ranks, peers and versions, each kept once and at most kMaxPerKey per key, so a finding
// says "code 0x7BC80" when the code was printed only in a report frame it did not cite.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace triage {

class KnowledgeBase;

class LineFacts {
 public:
  static constexpr size_t kMaxPerKey = 4;

  // Scans `text`. A decimal code is kept only when the catalogue knows it (kb may be null:
  // then every code is kept); an EXnnnn or a hexadecimal return code is kept as printed.
  void add(std::string_view text, const KnowledgeBase* kb);
  // One value the scanner found already (model/facts_scanned.h), under the same rule.
  void put(std::string_view key, std::string_view value, const KnowledgeBase* kb);
  bool empty() const { return keys_.empty(); }
  bool has(std::string_view key, std::string_view value) const;

  // "code EE1001, 0x7BC80; pid 106; device 0": keys in a fixed order (code, error_str,
  // operator, symbol, library, pid, device, chip, core, rank, stream, task, peer, version),
  // values first seen first. Values `said` already
  // names are left out (a code or a name as a whole token; an id as "key value" or
  // "key=value"); "" when nothing is left.
  std::string text(std::string_view said = {}) const;

 private:
  std::vector<std::pair<std::string, std::vector<std::string>>> keys_;
};

// Whether `text` names `key`'s `value` already (the rule of LineFacts::text).
bool names_fact(std::string_view text, std::string_view key, std::string_view value);

}  // namespace triage
