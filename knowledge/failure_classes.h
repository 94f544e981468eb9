#pragma once
// knowledge/failure-classes.tsv: a CANN code, a phrase or a signature id that says what
// failed (the job's operator, the device's memory, a library the loader could not resolve,
// the device itself). Read by correlator/failure_class and correlator/device_exception.
#include <string>
#include <string_view>
#include <vector>

namespace triage {

struct FailureClassInfo {
  std::string match;   // code | phrase | signature
  std::string text;    // "EZ1001", "NPU out of memory", "driver/memory-exhausted"
  std::string klass;   // operator | operator-fault | device-fault | device-memory | library-load | job-code |
                       // install-mismatch | import-path
  std::string meaning;
  std::string source;
};

constexpr std::string_view kFailureClassFile = "failure-classes.tsv";

struct FailureClasses {
  std::vector<FailureClassInfo> rows;
  // The first row whose code equals `code` / whose phrase occurs in `text` / with this id.
  const FailureClassInfo* of_code(std::string_view code) const;
  const FailureClassInfo* of_text(std::string_view text) const;
  const FailureClassInfo* of_signature(std::string_view id) const;
};

// Columns match, text, class, meaning, source; problems as "file:line: message".
FailureClasses parse_failure_classes(std::string_view content, const std::string& name,
                                     std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/failure-classes.tsv replaces it).
const FailureClasses& failure_classes_for(const std::string& dir);

}  // namespace triage
