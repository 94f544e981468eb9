#pragma once
// Which parser reads which kind: the one table (ingest/registry.cpp) the entry processor
// dispatches through.
#include "model/source_kind.h"
#include "parsers/common/parser.h"

namespace triage {

// The parser for a kind; nullptr when the kind is recorded in the inventory but not parsed.
ParseFn parser_for(SourceKind kind);

}  // namespace triage
