#include "parsers/finalize.h"

#include "parsers/python_parser.h"

namespace triage {

// One call per domain whose facts need finishing, in dependency order
// (system and process zones before the logs that use them).
void finalize_facts(BundleFacts& facts, const AnalyzeOptions& options) {
  finalize_python_facts(facts, options);
}

}  // namespace triage
