#pragma once
// The plog family's error lines, for unexplained-errors (model/error_lines.h).
#include <string>
#include <string_view>

#include "model/error_lines.h"
#include "model/host_facts.h"

namespace triage {

// Lines the plog reader kept an error code of (`ErrCode=`, `error code is`), offered before
// the signature hits so the code stays with the line.
void plog_coded_error_lines(const BundleFacts& b, ErrorLineSink& out);
// `[ERROR]` rows no fact kept, already collapsed per entry by the reader.
void plog_error_rows(const BundleFacts& b, ErrorLineSink& out);

// A plog excerpt `[ERROR] MODULE(pid,proc):time [file:line]tid func:message`: module, message.
void split_plog(std::string_view line, std::string& module, std::string& message);
// An `[ERROR]` level tag near the start of the excerpt.
bool is_plog_error(std::string_view excerpt);

}  // namespace triage
