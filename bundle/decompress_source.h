#pragma once
// Decompresses a compressed member (rotated messages-*.gz, *.zst) on the fly with a nested
// libarchive "raw" reader fed from the stored bytes. Damage is reported through error():
// a decoder error, stored bytes left undecoded, or a gzip trailer (CRC-32, length) that
// does not match what was decoded.
#include <cstdint>
#include <memory>

#include "bundle/byte_source.h"
#include "bundle/member_name.h"
#include "bundle/stored_source.h"

struct archive;

namespace triage {

class DecompressSource final : public ByteSource {
 public:
  DecompressSource(StoredSource& in, Compression c);
  ~DecompressSource() override;
  DecompressSource(const DecompressSource&) = delete;
  DecompressSource& operator=(const DecompressSource&) = delete;
  size_t read(char* buf, size_t n) override;
  uint64_t decoded() const { return decoded_; }

 private:
  static long on_read(archive*, void* self, const void** buf);
  bool start();
  void finish();
  void fail(std::string message);

  StoredSource& in_;
  Compression kind_;
  archive* a_ = nullptr;
  std::unique_ptr<char[]> inbuf_;
  bool started_ = false, done_ = false;
  uint64_t decoded_ = 0;
  uint32_t crc_ = 0;
};

}  // namespace triage
