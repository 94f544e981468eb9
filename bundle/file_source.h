#pragma once
// Bytes of an open file descriptor (directory members and single-file inputs).
#include "bundle/byte_source.h"

namespace triage {

class FdSource final : public ByteSource {
 public:
  explicit FdSource(int fd) : fd_(fd) {}  // takes ownership
  ~FdSource() override;
  FdSource(const FdSource&) = delete;
  FdSource& operator=(const FdSource&) = delete;
  size_t read(char* buf, size_t n) override;

 private:
  int fd_;
};

}  // namespace triage
