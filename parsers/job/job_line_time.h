#pragma once
// The time a job-output line carries at its start, in the forms the loggers customers run
// print (docs/python-logs.md, "Line times"). A pure function of one line: nothing allocated.
// Several forms print no year (mmengine, detectron2/LiBai, vLLM, glog): such a time is kept
// as written, `year == 0`, and never made a full date here; python_finalize.cpp takes the year
// from the bundle where it states one. A line without a time of its own inherits the time of
// the stamped line before it in its stream (a traceback or a multi-line message continues the
// record it follows): python_parser.cpp.
#include <cstdint>
#include <optional>
#include <string_view>

#include "model/time.h"

namespace triage::joblines {

struct LineTime {
  CivilTime local;               // year 0 when the form prints none
  std::string_view text;         // the time as written ("05/22 09:09:35")
  std::string_view form;         // "mmengine", "detectron2", "vllm", "glog", "iso", "slash"
  bool has_year() const { return local.year != 0; }
};

// The time at the start of `body` (the program's own text after the launcher prefixes):
//   mmengine    `05/22 09:09:35 - mmengine - WARNING - text` (MMFormatter, `%m/%d %H:%M:%S`)
//   detectron2  `[09/10 10:38:03 lb.engine.trainer]: text` (detectron2 / LiBai setup_logger)
//   glog        `I0522 09:09:35.123456  4321 file.cc:12] text`, glog 0.7 `E20250522 ...`
//   iso         `2024-09-04 02:46:04,123 - name - ERROR - text` (Python logging's asctime),
//               `[2024-09-04 02:46:04] ...`, a `T` or a dash for the blank
//   slash       `2024/09/04 02:46:04 text` (Go's log package)
// Month 1-12, the day within the month (29 February allowed without a year), hour < 24,
// minute < 60, second <= 60: `12/31 25:00:00` is no time. nullopt when none is there.
std::optional<LineTime> read_line_time(std::string_view body);
// vLLM's logger prefix, which line_prefix.h removes from the body (`ERROR 09-07 01:11:09
// [file.py:596] `): its time (year-less, form "vllm").
std::optional<LineTime> read_logger_time(std::string_view logger);

// A full date (`YYYY-MM-DD`, `YYYY/MM/DD`, `YYYY-MM-DD-HH:MM:SS` of CANN) anywhere in the line:
// the line has a time of its own and inherits none.
bool has_own_date(std::string_view body);

}  // namespace triage::joblines
