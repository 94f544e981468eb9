#pragma once
// `pip list` as people paste it: a `Package  Version` header, a rule of dashes, then one
// `name  version [location]` row per package, or only the rows a `| grep torch` kept. Each
// row becomes a default-pip package row (kind "pip-list") that the version matrix reads.
#include "parsers/common/parser.h"

namespace triage {

void parse_pip_list_text(ParseContext& ctx, ByteSource& src);

}  // namespace triage
