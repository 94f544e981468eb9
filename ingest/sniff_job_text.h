#pragma once
// The last content sniff before "no known format" (issue 36): a text that no line shape
// names but that holds a healthy run's progress lines of a stack customers run (training
// steps, inference-server lifecycle: knowledge/job-text-forms.tsv role progress), or
// error-level lines of any shape (knowledge/error-levels.tsv forms, job-text-forms.tsv role
// error), is job output: the job-output reader keeps each error-level line as an unexplained
// error with its codes, and a healthy log reads as one, instead of exit 2.
#include <optional>
#include <string_view>

#include "ingest/classify.h"

namespace triage {

std::optional<SniffResult> sniff_job_text(std::string_view head, bool whole);

}  // namespace triage
