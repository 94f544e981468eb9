#pragma once
// Recognises a tool's error text where data was expected ("command not found",
// "Permission denied", ...), so that a parser records "not collected: reason" instead of an
// empty fact (as insights-core's CommandParser refuses such content).
#include <optional>
#include <string>
#include <string_view>

#include "model/parse_stats.h"

namespace triage {

struct ToolError {
  std::string_view reason;  // tool_missing, source_missing, permission, tool_failed
  std::string message;      // the first error line, as a safe excerpt
  std::string describe() const { return std::string(reason) + ": " + message; }
};

// The text is a tool's error output when it is short (at most 4 KiB and 8 non-blank lines)
// and every non-blank line is an error line or a usage hint following one. Any other
// content (a log that merely mentions "Permission denied" among data) is not.
std::optional<ToolError> detect_tool_error(std::string_view text);

// detect_tool_error, and when it matches sets stats.not_collected; true when it did.
bool note_tool_error(std::string_view text, ParseStats& stats);

}  // namespace triage
