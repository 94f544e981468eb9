#pragma once
// knowledge/error-str-sides.tsv: which side a device exception's decoded text (`errorStr` of an
// AI Core / vector core error, the AI CPU's error text) makes visible: the operator's own code
// or inputs (software), the device (hardware), or neither. Read by correlator/device_exception;
// each row's sample is a runtime text checked by `knowledge check` (docs/findings/failure-classes.md).
#include <string>
#include <string_view>
#include <vector>

namespace triage {

struct ErrorStrSide {
  std::string phrase;   // case-sensitive text found in the errorStr: "out of bounds"
  std::string side;     // software | hardware | neither
  std::string meaning;  // what the text says failed
  std::string sample;   // a runtime errorStr this row classifies (checked)
  std::string source;   // the public source of the text
};

constexpr std::string_view kErrorStrSidesFile = "error-str-sides.tsv";

struct ErrorStrSides {
  std::vector<ErrorStrSide> rows;
  // The first row whose phrase occurs in `text` (rows are ordered: specific before general).
  const ErrorStrSide* of(std::string_view text) const;
};

// Columns phrase, side, meaning, sample, source; problems as "file:line: message", including
// a sample that its own row does not classify (an earlier row takes it, or the phrase is not in it).
ErrorStrSides parse_error_str_sides(std::string_view content, const std::string& name,
                                    std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/error-str-sides.tsv replaces it).
const ErrorStrSides& error_str_sides_for(const std::string& dir);

}  // namespace triage
