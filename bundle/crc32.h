#pragma once
// CRC-32 (IEEE, as in gzip trailers). libarchive's gzip reader does not verify the
// trailer, so a corrupt member would otherwise end early without an error.
#include <cstddef>
#include <cstdint>

namespace triage {

uint32_t crc32_update(uint32_t crc, const void* data, size_t n);  // start with crc = 0

}  // namespace triage
