// Archive input as `analyze` reads it: the bytes are a file on disk that libarchive may take
// for tar, zip, gzip or zstd (or none: then it is one loose file), every member classified,
// parsed and analysed. Seeds: small bundles packed in each form (fuzz/make-seeds.sh).
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  triage::fuzz::analyze_path(triage::fuzz::scratch_file("bundle.tar.zst", data, size));
  return 0;
}
