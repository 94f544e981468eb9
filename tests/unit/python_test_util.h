#pragma once
// Helpers shared by the Python-log parser tests: run the parser on a string and describe
// the facts it kept in one compact row (the format of tests/fixtures/reference/python-excerpts.tsv).
#include <string>
#include <string_view>

#include "model/host_facts.h"
#include "model/options.h"
#include "model/parse_stats.h"

namespace triage::pytest {

struct Parsed {
  BundleFacts facts;
  ParseStats stats;
};

// Parses `text` as one python_log entry named `path` and finalizes the bundle.
Parsed parse_python_text(std::string_view text, const AnalyzeOptions& options = {},
                         std::string path = "job.log");

// The columns of python-excerpts.tsv after the id, tab-separated:
// tracebacks, innermost, exception, error_code, ecode, anchor, torch_errors, err_lines,
// reports, warnings, counts (parsed/unrecognised/malformed).
std::string summarise(const Parsed& p);

}  // namespace triage::pytest
