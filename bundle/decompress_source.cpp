#include <zlib.h>  // crc32: libarchive does not check gzip trailers

#include "bundle/decompress_source.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>

#include <cerrno>


namespace triage {
namespace {
constexpr size_t kInBuf = 64 * 1024;
// libarchive's "Unrecognized archive format" errno (ARCHIVE_ERRNO_FILE_FORMAT, private):
// EILSEQ on Linux. Decoder errors use other codes.
constexpr int kFileFormatErrno = EILSEQ;

uint32_t le32(std::string_view s) {
  auto b = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(s[i])); };
  return b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24;
}
}  // namespace

DecompressSource::DecompressSource(StoredSource& in, Compression c)
    : in_(in), kind_(c), inbuf_(std::make_unique<char[]>(kInBuf)) {}

DecompressSource::~DecompressSource() {
  if (a_) archive_read_free(a_);
}

long DecompressSource::on_read(archive*, void* self, const void** buf) {
  auto* me = static_cast<DecompressSource*>(self);
  *buf = me->inbuf_.get();
  return static_cast<long>(me->in_.read(me->inbuf_.get(), kInBuf));
}

void DecompressSource::fail(std::string message) {
  done_ = true;
  // A cut in the outer stream explains the decoder's complaint better than the decoder does.
  error_ = in_.error().empty() ? std::move(message) : in_.error();
}

bool DecompressSource::start() {
  started_ = true;
  a_ = archive_read_new();
  switch (kind_) {
    case Compression::gzip: archive_read_support_filter_gzip(a_); break;
    case Compression::zstd: archive_read_support_filter_zstd(a_); break;
    case Compression::xz: archive_read_support_filter_xz(a_); break;
    case Compression::bzip2: archive_read_support_filter_bzip2(a_); break;
    case Compression::lz4: archive_read_support_filter_lz4(a_); break;
    case Compression::none: break;
  }
  archive_read_support_format_raw(a_);
  archive_entry* entry = nullptr;
  if (archive_read_open(a_, this, nullptr, &DecompressSource::on_read, nullptr) != ARCHIVE_OK ||
      archive_read_next_header(a_, &entry) < ARCHIVE_WARN) {
    // The raw format cannot bid on zero bytes: a member that decodes to nothing (an empty
    // rotated log) fails here without being damaged. finish() checks that claim.
    if (archive_errno(a_) == kFileFormatErrno && archive_filter_bytes(a_, 0) == 0) {
      finish();
      return false;
    }
    fail(fmt::format("{} data could not be decoded: {}", to_string(kind_),
                     archive_error_string(a_) ? archive_error_string(a_) : "unknown error"));
    return false;
  }
  return true;
}

size_t DecompressSource::read(char* buf, size_t n) {
  if (done_) return 0;
  if (!started_ && !start()) return 0;
  while (true) {
    la_ssize_t k = archive_read_data(a_, buf, n);
    if (k > 0) {
      decoded_ += static_cast<uint64_t>(k);
      if (kind_ == Compression::gzip) crc_ = static_cast<uint32_t>(crc32(crc_, reinterpret_cast<const Bytef*>(buf), static_cast<uInt>(k)));
      return static_cast<size_t>(k);
    }
    if (k == ARCHIVE_RETRY) continue;
    if (k == 0) {
      finish();
    } else {
      fail(fmt::format("{} data corrupt after {} decoded bytes: {}", to_string(kind_), decoded_,
                       archive_error_string(a_) ? archive_error_string(a_) : "unknown error"));
    }
    return 0;
  }
}

// End of decoded data: the stored stream must be used up, and a gzip trailer must agree.
void DecompressSource::finish() {
  done_ = true;
  uint64_t used = in_.count();
  uint64_t left = in_.drain();
  if (!in_.error().empty()) {
    error_ = in_.error();
    return;
  }
  if (left > 0) {
    error_ = fmt::format("{} data ended after {} decoded bytes, {} of {} stored bytes not decoded",
                         to_string(kind_), decoded_, left, used + left);
    return;
  }
  if (kind_ == Compression::gzip && in_.tail().size() == 8) {
    uint32_t want_crc = le32(in_.tail().substr(0, 4)), want_len = le32(in_.tail().substr(4, 4));
    if (want_len != static_cast<uint32_t>(decoded_) || want_crc != crc_)
      error_ = fmt::format(
          "gzip trailer does not match the decoded data (length {} vs {}, crc32 {:08x} vs "
          "{:08x}): the data is corrupt (or several gzip members were concatenated)",
          want_len, static_cast<uint32_t>(decoded_), want_crc, crc_);
  }
}

}  // namespace triage
