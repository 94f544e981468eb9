#pragma once
// Where a fact or a finding came from: a bundle entry, a line in it, and a short excerpt.
#include <cstdint>
#include <string>
#include <string_view>

namespace triage {

struct EvidenceRef {
  std::string entry;      // entry path as shown to the user ("<input>!<path>" for archives)
  uint64_t line = 0;      // 1-based line number; 0 = the entry as a whole
  uint64_t offset = 0;    // byte offset of the line's first byte in the (decompressed) entry
  std::string excerpt;    // at most kMaxExcerpt bytes, control bytes escaped

  static constexpr size_t kMaxExcerpt = 240;
};

// Builds an excerpt that is safe to print: capped, with control and invalid bytes as \xNN.
std::string make_excerpt(std::string_view text, size_t max_bytes = EvidenceRef::kMaxExcerpt);

EvidenceRef make_evidence(std::string_view entry, uint64_t line, uint64_t offset,
                          std::string_view text);

}  // namespace triage
