#pragma once
// Reads a baseline file (`ascend-triage baseline -o FILE.json`, schema ascend-triage-baseline/1,
// docs/schemas/baseline.schema.json) back into a chain. Untrusted input: every problem is an
// error naming the file and the JSON path, never a crash.
#include <string>
#include <string_view>

#include "model/chain.h"

namespace triage {

// Whether the start of a file's bytes says it is a baseline (a JSON object naming the schema).
bool looks_like_baseline(std::string_view head);

// false (and `error` = "FILE: why") when the file cannot be read or is not a valid baseline.
bool read_baseline(const std::string& path, Chain& out, std::string& error);

}  // namespace triage
