// A pasted log as `analyze FILE` reads it: sniffed, split into segments when mixed
// (ingest/mixed_text.cpp), each segment parsed by its kind, analysed and rendered.
// Seeds: the real-text corpus (tests/data/real/) and the sample bundles' text files.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  triage::fuzz::analyze_path(triage::fuzz::scratch_file("paste.log", data, size));
  return 0;
}
