#pragma once
// The job-output family's error lines, for unexplained-errors (model/error_lines.h): CANN
// error reports, torch_npu ERR lines and errors, the exception each traceback chain finally
// raised, job events that are failures (error-level lines of unknown shape among them), and
// c10 `E` records.
#include "model/error_lines.h"
#include "model/host_facts.h"

namespace triage {

void job_error_lines(const BundleFacts& b, ErrorLineSink& out);

}  // namespace triage
