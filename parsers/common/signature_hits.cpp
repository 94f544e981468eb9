#include "parsers/common/signature_hits.h"

#include <algorithm>

#include "parsers/common/log_text.h"

namespace triage {

namespace {
const SignatureMatcher& matcher_for(const KnowledgeBase& kb, SignatureSource s) {
  switch (s) {
    case kSigPlog: return kb.plog_matcher;
    case kSigKernel: return kb.kernel_matcher;
    case kSigJob: return kb.job_matcher;
    case kSigNpuSmi: return kb.npu_smi_matcher;
  }
  return kb.job_matcher;
}
}  // namespace

SignatureHitter::SignatureHitter(const KnowledgeBase& kb, SignatureSource source)
    : kb_(kb), matcher_(matcher_for(kb, source)), source_(signature_source_name(source)) {}

std::vector<std::pair<std::string, std::string>> signature_captures(const RE2& re, std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  int n = re.NumberOfCapturingGroups();
  if (n <= 0) return out;
  std::vector<re2::StringPiece> groups(static_cast<size_t>(n) + 1);
  if (!re.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED,
                groups.data(), n + 1))
    return out;
  for (const auto& [name, index] : re.NamedCapturingGroups()) {
    const auto& g = groups[static_cast<size_t>(index)];
    if (g.data() != nullptr) out.emplace_back(name, std::string(g.data(), g.size()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool SignatureHitter::offer(std::string_view text, std::string_view entry, uint64_t line,
                            uint64_t offset, std::string_view whole_line,
                            std::optional<int64_t> pid, LogFacts& logs) {
  if (matcher_.empty() || !matcher_.any(text)) return false;
  const uint64_t key = mix64(message_template_key(text), static_cast<uint64_t>(pid.value_or(-1)));
  TemplateSlot& slot = templates_[key];
  if (slot.kept >= kPlogKeptPerTemplate && slot.hits_n > 0 &&
      slot.hits_at + slot.hits_n <= logs.signature_hits.size()) {
    for (size_t i = slot.hits_at; i < slot.hits_at + slot.hits_n; ++i) ++logs.signature_hits[i].repeats.lines;
    return true;
  }
  matcher_.match(text, {}, scratch_, hits_);
  slot.hits_at = logs.signature_hits.size();
  slot.hits_n = hits_.size();
  if (!hits_.empty()) ++slot.kept;
  for (int idx : hits_) {
    const Signature& sig = kb_.signatures[static_cast<size_t>(idx)];
    SignatureHit h;
    h.id = sig.id;
    h.severity = sig.severity;
    h.category = sig.category;
    h.pid = pid;
    h.source = std::string(source_);
    h.evidence = make_evidence(entry, line, offset, whole_line);
    if (sig.re) h.captures = signature_captures(*sig.re, text);
    logs.signature_hits.push_back(std::move(h));
  }
  return !hits_.empty();
}

}  // namespace triage
