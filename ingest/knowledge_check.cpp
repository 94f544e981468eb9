#include "ingest/knowledge_check.h"

#include "parsers/kernel/kernel_line.h"
#include "parsers/plog/plog_line.h"

namespace triage {

std::string_view sample_text(std::string_view sample, uint8_t sources, std::string_view& module) {
  module = {};
  if (sources & kSigPlog) {
    PlogLine p;
    if (parse_plog_line(sample, p) == PlogResult::parsed) {
      module = p.module;
      return plog_signature_text(p);
    }
  }
  if (sources & kSigKernel) {
    KernelLine k;
    if (parse_kernel_line(sample, k) == KernelResult::parsed) return k.message;
  }
  return sample;
}

KnowledgeCheck check_knowledge_file(std::string_view content, const std::string& name) {
  return check_knowledge_file(content, name, &sample_text);
}

}  // namespace triage
