#include "bundle/file_source.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace triage {

FdSource::~FdSource() {
  if (fd_ >= 0) ::close(fd_);
}

size_t FdSource::read(char* buf, size_t n) {
  if (fd_ < 0 || !error_.empty()) return 0;
  while (true) {
    ssize_t k = ::read(fd_, buf, n);
    if (k >= 0) return static_cast<size_t>(k);
    if (errno == EINTR) continue;
    error_ = std::string("read error: ") + std::strerror(errno);
    return 0;
  }
}

}  // namespace triage
