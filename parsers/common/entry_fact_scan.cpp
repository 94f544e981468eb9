#include "parsers/common/entry_fact_scan.h"

#include <map>
#include <mutex>

#include "knowledge/fact_scanner.h"
#include "model/strings.h"

namespace triage {
namespace {

std::mutex g_mu;
std::map<std::string, std::vector<ScannedFact>, std::less<>>& store() {
  static auto* s = new std::map<std::string, std::vector<ScannedFact>, std::less<>>();
  return *s;
}

// The entry's vector: null when it has none and `create` is false, or the store is full.
std::vector<ScannedFact>* entry_facts(std::string_view entry, bool create) {
  std::lock_guard<std::mutex> lock(g_mu);
  auto& s = store();
  auto it = s.find(entry);
  if (it != s.end()) return &it->second;
  if (!create || s.size() >= EntryFactScan::kMaxEntries) return nullptr;
  return &s.emplace(std::string(entry), std::vector<ScannedFact>{}).first->second;
}

}  // namespace

std::vector<ScannedFact> scanned_facts(std::string_view entry) {
  std::lock_guard<std::mutex> lock(g_mu);
  auto& s = store();
  auto it = s.find(entry);
  return it == s.end() ? std::vector<ScannedFact>{} : it->second;
}

EntryFactScan::EntryFactScan(std::string_view entry, size_t max_reads)
    : entry_(entry), scanner_(builtin_fact_scanner()), max_reads_(max_reads) {}

// FNV-1a of the line with each run of digits (and a 0x prefix's hex) as one '#'.
bool EntryFactScan::seen_template(std::string_view t) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](char c) { h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull; };
  for (size_t i = 0; i < t.size();) {
    if (t[i] == '0' && i + 2 < t.size() && (t[i + 1] == 'x' || t[i + 1] == 'X') && is_hex(t[i + 2])) {
      i += 2;
      while (i < t.size() && is_hex(t[i])) ++i;
      mix('#');
    } else if (is_digit(t[i])) {
      while (i < t.size() && is_digit(t[i])) ++i;
      mix('#');
    } else {
      mix(t[i++]);
    }
  }
  if (h == 0) h = 1;
  for (uint64_t s : templates_)
    if (s == h) return true;
  templates_[next_template_] = h;
  next_template_ = (next_template_ + 1) % kTemplates;
  return false;
}

void EntryFactScan::line(std::string_view text, uint64_t number, uint64_t offset) {
  if (reads_ >= max_reads_ || (out_ && out_->size() >= kMaxFacts) || !scanner_.any(text) || seen_template(text))
    return;
  ++reads_;
  // Another reader of the same entry (a pasted file's segments) may have values already.
  if (!out_) out_ = entry_facts(entry_, false);
  scanner_.each(text, [&](std::string_view key, std::string_view value) {
    size_t per_key = 0;
    if (out_)
      for (const auto& f : *out_) {
        if (f.key != key) continue;
        if (f.value == value) return;
        ++per_key;
      }
    if (!out_) out_ = entry_facts(entry_, true);
    if (!out_ || per_key >= kMaxPerKey || out_->size() >= kMaxFacts) return;
    out_->push_back({std::string(key), std::string(value), make_evidence(entry_, number, offset, text)});
  });
}

}  // namespace triage
