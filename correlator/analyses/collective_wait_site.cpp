#include "correlator/analyses/collective_wait_site.h"

#include <string_view>

namespace triage {

std::optional<EvidenceRef> collective_wait_in_barrier(const BundleFacts& b) {
  for (const auto& t : b.python.tracebacks) {
    bool npu_error = t.error_code || t.error_report || t.torch_error || !t.ecode.empty();
    if (!npu_error) continue;
    for (const auto& f : t.frames) {
      bool barrier = f.function == "barrier" || f.function == "monitored_barrier";
      if (barrier && f.file.find("distributed") != std::string::npos) return f.evidence;
    }
  }
  return std::nullopt;
}

}  // namespace triage
