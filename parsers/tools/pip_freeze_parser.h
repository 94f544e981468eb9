#pragma once
// `pip freeze` output and requirements files as people paste them: `name==version` rows
// (extras, `===`, a trailing marker or comment allowed), `name @ <url>` direct references
// (a wheel's file name gives the version), `-e` editable installs and pip options. Each
// pinned row becomes a default-pip package row (kind "pip-freeze") that the version matrix
// reads, as `pip list` rows do.
#include "parsers/common/parser.h"

namespace triage {

void parse_pip_freeze(ParseContext& ctx, ByteSource& src);

}  // namespace triage
