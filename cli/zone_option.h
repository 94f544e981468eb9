#pragma once
// --utc-offset: an offset (+08:00, UTC), or an IANA zone name read from the system's tzdata
// (Asia/Shanghai, with its DST rule); an abbreviation that names several zones (CST) is
// refused with the zones it may mean (knowledge/zone-abbreviations.tsv).
#include <string>
#include <string_view>

#include "model/options.h"

namespace triage {

// Sets out.utc_offset_seconds or out.assumed_zone; false with `error` set when the text is
// none of the accepted forms.
bool resolve_utc_offset(std::string_view text, const std::string& knowledge_dir, AnalyzeOptions& out,
                        std::string& error);

}  // namespace triage
