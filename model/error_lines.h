#pragma once
// Which of its lines are errors is the reader family's to say: each family offers its error
// lines through an ErrorLineSink (parsers/<family>/error_lines.cpp, listed in
// ingest/registry.cpp), and unexplained-errors (correlator/unexplained_errors.cpp) groups the
// ones no finding explains. A new family adds its function and a row, not a case there.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/evidence.h"
#include "model/facts_logs.h"
#include "model/facts_python.h"
#include "model/time.h"

namespace triage {

// One error line (or collapsed row of identical lines) before grouping.
struct ErrorLine {
  std::string_view source;  // plog, kernel, service, job, npu-smi
  std::string module, code, message;
  const EvidenceRef* evidence = nullptr;
  const EvidenceRef* also = nullptr;  // a second line of the same fact (report header)
  uint64_t count = 1;
  std::string first, last;  // time text; "" = unknown
  std::optional<int64_t> pid, device, rank;
  const ErrorReportBlock* report = nullptr;  // job output: the whole CANN error report
  const JobEvent* raised_from = nullptr;     // c10: the `Exception raised from` line after it

  // Lines of the same template the parser counted on this fact, not read (FoldedRepeats).
  void add_repeats(const FoldedRepeats& r);
};

class ErrorLineSink {
 public:
  virtual ~ErrorLineSink() = default;
  // A new line to fill, or nullptr when the line is another's already (the first reader to
  // offer a line keeps it; a benign signature's line is nobody's error).
  virtual ErrorLine* add(std::string_view source, const EvidenceRef& evidence) = 0;
  // A line that belongs to one already added (a report's header): never offered on its own.
  virtual void take(const EvidenceRef& evidence) = 0;
};

// A group's time text: UTC when known, else the civil time marked "(local)", else "".
std::string error_time_text(const LocalTime& t);
std::string error_time_text(const Timestamp& t);
std::string error_time_text(const CivilTime& c);

}  // namespace triage
