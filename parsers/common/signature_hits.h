#pragma once
// Signature matching for the text sources that have no line grammar of their own (job
// output, npu-smi output): one prefilter pass per line, captures only for lines that match.
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "knowledge/knowledge.h"
#include "model/facts_logs.h"

namespace triage {

class SignatureHitter {
 public:
  SignatureHitter(const KnowledgeBase& kb, SignatureSource source);
  // Appends one SignatureHit per matching signature of this source to `logs`; true when one
  // matched (the line then has a known shape). Allocates nothing for a line no signature matches.
  // Storm folding as the plog reader's (model/facts_logs.h FoldedRepeats, issue 35): past
  // kPlogKeptPerTemplate kept lines of one template (digits and 0x values left out) and pid,
  // a matching line is counted on its template's last kept hits, not kept: a hash, no allocation.
  bool offer(std::string_view text, std::string_view entry, uint64_t line, uint64_t offset,
             std::string_view whole_line, std::optional<int64_t> pid, LogFacts& logs);

 private:
  const KnowledgeBase& kb_;
  const SignatureMatcher& matcher_;
  std::string_view source_;
  std::vector<int> scratch_, hits_;
  struct TemplateSlot {
    uint32_t kept = 0;
    size_t hits_at = 0, hits_n = 0;  // the last kept line's hits in logs.signature_hits
  };
  std::unordered_map<uint64_t, TemplateSlot> templates_;
};

// The named captures of `re` on `text`, sorted by name (empty when it has none).
std::vector<std::pair<std::string, std::string>> signature_captures(const RE2& re, std::string_view text);

}  // namespace triage
