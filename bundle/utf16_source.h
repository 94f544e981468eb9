#pragma once
// Reads UTF-16 text as UTF-8, so that every reader above sees the bytes it expects: a log
// saved by a Windows editor (or converted by iconv) gives the same findings as the
// original. Detected from the first bytes: a byte-order mark (FF FE, FE FF), or ASCII
// interleaved with NULs (UTF-16 without a mark). Anything else passes through unchanged
// and without a copy. The mark is dropped, so the UTF-8 bytes (and their line numbers and
// offsets) are those of the text before it was converted; an unpaired surrogate or an odd
// last byte becomes U+FFFD.
#include <cstdint>
#include <memory>
#include <string_view>

#include "bundle/byte_source.h"

namespace triage {

class Utf16Source final : public ByteSource {
 public:
  enum class Encoding { unknown, none, utf16le, utf16be };

  explicit Utf16Source(ByteSource& in) : in_(in) {}
  size_t read(char* buf, size_t n) override;
  // Decides from the first bytes (reads them; read() serves them again). Idempotent.
  Encoding detect();
  // Whether the input carried a byte-order mark (valid after detect()).
  bool had_bom() const { return bom_; }

 private:
  static constexpr size_t kProbe = 64;   // bytes looked at without a mark
  static constexpr size_t kInBuf = 64 * 1024;
  size_t fill_probe();
  size_t transcode(char* out, size_t n);
  bool refill();  // more input into in_buf_; false at the end
  uint16_t unit(size_t at) const;

  ByteSource& in_;
  Encoding enc_ = Encoding::unknown;
  bool bom_ = false;
  char probe_[kProbe];
  size_t probe_len_ = 0, probe_pos_ = 0;
  std::unique_ptr<char[]> in_buf_;  // only for UTF-16 input
  size_t in_pos_ = 0, in_len_ = 0;
  bool in_end_ = false;
  char pend_[4];  // the rest of a code point that did not fit
  size_t pend_len_ = 0, pend_pos_ = 0;
};

std::string_view to_string(Utf16Source::Encoding e);

}  // namespace triage
