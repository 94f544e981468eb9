#pragma once
// Reads every input path once, classifies each entry, runs its parser, and returns the
// facts of each input. Never extracts to disk.
#include <string>
#include <vector>

#include "bundle/read_progress.h"
#include "model/host_facts.h"
#include "model/options.h"

namespace triage {

struct LoadResult {
  EvidenceSet evidence;
  std::vector<std::string> errors;  // inputs that could not be opened at all ("path: reason")
  bool recognised_any = false;      // at least one entry of a known kind
};

// The input path that means standard input (read as one loose file named options.stdin_name).
inline constexpr const char* kStdinPath = "-";

// `progress`, when given, is told of each entry and of the bytes read (a terminal display).
LoadResult load_evidence(const std::vector<std::string>& paths, const AnalyzeOptions& options,
                         ReadProgress* progress = nullptr);

}  // namespace triage
