#pragma once
// kernel/boots.txt: the journal's list of boots, for the timeline's boot marks.
#include <string>
#include <string_view>

#include "parsers/common/parser.h"

namespace triage {

void parse_boots_txt(ParseContext& ctx, ByteSource& src);

}  // namespace triage
