// The collector family's finishing step: the order matters (host name and zone first).
#include "parsers/collector/kinds.h"

namespace triage {

void finalize_collector_facts(BundleFacts& facts, const AnalyzeOptions& options) {
  finalize_system(facts, options);  // host name first: the manifest's findings carry it
  finalize_manifest(facts);
  finalize_processes(facts);
}

}  // namespace triage
