#pragma once
// kernel/boots.txt: the journal's list of boots, for the timeline's boot marks.
#include <string>
#include <string_view>

#include "parsers/common/parser.h"

namespace triage {

void parse_boots_txt(ParseContext& ctx, ByteSource& src);

// "c69ba5291b6d440fa2ad985fff78b465" -> "c69ba529-1b6d-440f-a2ad-985fff78b465" (lower case);
// anything that is not 32 hex digits is returned as it is.
std::string boot_id_with_dashes(std::string_view id);

}  // namespace triage
