#pragma once
// The parser of a mixed paste: the entry is split into segments (ingest/segment.h) and each
// segment is handed to the parser of its kind, its lines numbered as in the file.
#include "parsers/common/parser.h"

namespace triage {

void parse_mixed_text(ParseContext& ctx, ByteSource& src);

}  // namespace triage
