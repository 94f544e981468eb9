#include "ingest/finalize.h"

#include "parsers/collector/manifest_parsers.h"
#include "parsers/collector/process_parsers.h"
#include "parsers/collector/system_parsers.h"
#include "ingest/log_finalize.h"
#include "parsers/job/python_parser.h"
#include "parsers/plog/seclog_parser.h"

namespace triage {

// One call per domain whose facts need finishing, in dependency order
// (system and process zones before the logs that use them).
void finalize_facts(BundleFacts& facts, const AnalyzeOptions& options) {
  finalize_system(facts, options);  // host name first: the manifest's findings carry it
  finalize_manifest(facts);
  finalize_processes(facts);
  finalize_log_facts(facts, options);
  finalize_python_facts(facts, options);
  finalize_event_facts(facts, options);
}

}  // namespace triage
