#pragma once
// Signature matching for the text sources that have no line grammar of their own (job
// output, npu-smi output): one prefilter pass per line, captures only for lines that match.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "knowledge/knowledge.h"
#include "model/facts_logs.h"

namespace triage {

class SignatureHitter {
 public:
  SignatureHitter(const KnowledgeBase& kb, SignatureSource source);
  // Appends one SignatureHit per matching signature of this source to `logs`; true when one
  // matched (the line then has a known shape). Allocates nothing for a line no signature matches.
  bool offer(std::string_view text, std::string_view entry, uint64_t line, uint64_t offset,
             std::string_view whole_line, std::optional<int64_t> pid, LogFacts& logs);

 private:
  const KnowledgeBase& kb_;
  const SignatureMatcher& matcher_;
  std::string_view source_;
  std::vector<int> scratch_, hits_;
};

// The named captures of `re` on `text`, sorted by name (empty when it has none).
std::vector<std::pair<std::string, std::string>> signature_captures(const RE2& re, std::string_view text);

}  // namespace triage
