#pragma once
// Shared by the fuzz targets: the limits they analyse under, and the whole `analyze` path
// (read, classify, parse, finalize, correlate, render JSON) over one file on disk.
#include <string>
#include <string_view>

#include "model/options.h"

namespace triage::fuzz {

// Small limits: a 60-byte zstd frame may claim gigabytes, and the fuzzer must spend its time
// on paths, not on inflating. The limit findings themselves are then reached too.
AnalyzeOptions fuzz_options();

// Writes `data` to a file called `name` in this process's own scratch directory (the jobs of
// one fuzz run share /tmp) and returns its path. The file is rewritten on every call.
std::string scratch_file(std::string_view name, const uint8_t* data, size_t size);

// `analyze --format json` of `path`, the output discarded.
void analyze_path(const std::string& path);

}  // namespace triage::fuzz
