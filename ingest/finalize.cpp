#include "ingest/finalize.h"

#include "ingest/registry.h"
#include "knowledge/knowledge.h"

namespace triage {

// Each family's finishing step, in the order of parser_families() (zones before the logs
// that use them). Calling it again redoes the collector's and job's steps (tests set a zone
// and call it twice); the log steps run once (LogFacts::finalized, EventFacts::finalized).
void finalize_facts(BundleFacts& facts, const AnalyzeOptions& options) {
  const KnowledgeBase& kb = knowledge_for(options.knowledge_dir);
  facts.logs.knowledge_origin = kb.origin;
  facts.logs.knowledge_errors = kb.errors;
  for (const ParserFamily& family : parser_families())
    if (family.finalize) family.finalize(facts, options);
}

}  // namespace triage
