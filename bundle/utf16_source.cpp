#include "bundle/utf16_source.h"

#include <cstring>

namespace triage {
namespace {

// Whether the probe looks like UTF-16 text without a mark: its first 4 characters ASCII
// with a NUL beside each (on the side `nul_second` says), and so are at least 3 in 4 of the
// rest (CJK text between them has no NUL); no character is NUL itself.
bool nul_interleaved(const char* p, size_t len, bool nul_second) {
  if (len < 8) return false;
  size_t pairs = len / 2, ascii = 0;
  for (size_t i = 0; i < pairs; ++i) {
    auto ch = static_cast<unsigned char>(p[2 * i + (nul_second ? 0 : 1)]);
    char other = p[2 * i + (nul_second ? 1 : 0)];
    if (ch == 0 && other == 0) return false;
    bool is_ascii = other == 0 && ch != 0 && ch < 0x80;
    if (i < 4 && !is_ascii) return false;
    ascii += is_ascii;
  }
  return ascii * 4 >= pairs * 3;
}

size_t put_utf8(char* out, uint32_t cp) {
  if (cp < 0x80) {
    out[0] = static_cast<char>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<char>(0xC0 | cp >> 6);
    out[1] = static_cast<char>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<char>(0xE0 | cp >> 12);
    out[1] = static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out[2] = static_cast<char>(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = static_cast<char>(0xF0 | cp >> 18);
  out[1] = static_cast<char>(0x80 | (cp >> 12 & 0x3F));
  out[2] = static_cast<char>(0x80 | (cp >> 6 & 0x3F));
  out[3] = static_cast<char>(0x80 | (cp & 0x3F));
  return 4;
}

constexpr uint32_t kReplacement = 0xFFFD;

}  // namespace

std::string_view to_string(Utf16Source::Encoding e) {
  switch (e) {
    case Utf16Source::Encoding::utf16le: return "UTF-16LE";
    case Utf16Source::Encoding::utf16be: return "UTF-16BE";
    default: return "none";
  }
}

size_t Utf16Source::fill_probe() {
  while (probe_len_ < kProbe) {
    size_t k = in_.read(probe_ + probe_len_, kProbe - probe_len_);
    if (k == 0) {
      error_ = in_.error();
      break;
    }
    probe_len_ += k;
  }
  return probe_len_;
}

Utf16Source::Encoding Utf16Source::detect() {
  if (enc_ != Encoding::unknown) return enc_;
  fill_probe();
  auto b = [&](size_t i) { return static_cast<unsigned char>(probe_[i]); };
  enc_ = Encoding::none;
  if (probe_len_ >= 2 && b(0) == 0xFF && b(1) == 0xFE) {
    // FF FE 00 00 is UTF-32LE's mark: not ours, left alone.
    if (!(probe_len_ >= 4 && b(2) == 0 && b(3) == 0)) enc_ = Encoding::utf16le, bom_ = true;
  } else if (probe_len_ >= 2 && b(0) == 0xFE && b(1) == 0xFF) {
    enc_ = Encoding::utf16be, bom_ = true;
  } else if (nul_interleaved(probe_, probe_len_, true)) {
    enc_ = Encoding::utf16le;
  } else if (nul_interleaved(probe_, probe_len_, false)) {
    enc_ = Encoding::utf16be;
  }
  if (bom_) probe_pos_ = 2;
  if (enc_ != Encoding::none) {
    // The transcoder reads from its own buffer: the probe is its first input.
    in_buf_ = std::make_unique<char[]>(kInBuf);
    in_len_ = probe_len_ - probe_pos_;
    std::memcpy(in_buf_.get(), probe_ + probe_pos_, in_len_);
    probe_pos_ = probe_len_;
    in_end_ = probe_len_ < kProbe;
  }
  return enc_;
}

size_t Utf16Source::read(char* buf, size_t n) {
  if (detect() != Encoding::none) return transcode(buf, n);
  if (probe_pos_ < probe_len_) {
    size_t k = std::min(n, probe_len_ - probe_pos_);
    std::memcpy(buf, probe_ + probe_pos_, k);
    probe_pos_ += k;
    return k;
  }
  size_t k = in_.read(buf, n);
  if (k == 0) error_ = in_.error();
  return k;
}

bool Utf16Source::refill() {
  if (in_end_) return false;
  std::memmove(in_buf_.get(), in_buf_.get() + in_pos_, in_len_ - in_pos_);
  in_len_ -= in_pos_;
  in_pos_ = 0;
  size_t k = in_.read(in_buf_.get() + in_len_, kInBuf - in_len_);
  if (k == 0) {
    in_end_ = true;
    error_ = in_.error();
    return false;
  }
  in_len_ += k;
  return true;
}

uint16_t Utf16Source::unit(size_t at) const {
  auto b0 = static_cast<unsigned char>(in_buf_[at]), b1 = static_cast<unsigned char>(in_buf_[at + 1]);
  return enc_ == Encoding::utf16le ? static_cast<uint16_t>(b0 | b1 << 8) : static_cast<uint16_t>(b0 << 8 | b1);
}

// One code point at a time; one that does not fit in `n` waits in pend_ (a caller near a
// byte limit may ask for fewer than 4 bytes).
size_t Utf16Source::transcode(char* out, size_t n) {
  size_t o = 0;
  while (o < n) {
    if (pend_pos_ < pend_len_) {
      size_t k = std::min(n - o, pend_len_ - pend_pos_);
      std::memcpy(out + o, pend_ + pend_pos_, k);
      pend_pos_ += k;
      o += k;
      continue;
    }
    size_t avail = in_len_ - in_pos_;
    if (avail < 4 && !in_end_ && refill()) continue;
    if (avail == 0) break;
    uint32_t u = kReplacement;
    if (avail == 1) {  // an odd last byte
      ++in_pos_;
    } else {
      u = unit(in_pos_);
      in_pos_ += 2;
      if (u >= 0xD800 && u <= 0xDBFF) {
        uint32_t low = avail >= 4 ? unit(in_pos_) : 0;
        if (low >= 0xDC00 && low <= 0xDFFF) {
          in_pos_ += 2;
          u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
        } else {
          u = kReplacement;
        }
      } else if (u >= 0xDC00 && u <= 0xDFFF) {
        u = kReplacement;
      }
    }
    if (n - o >= 4) {
      o += put_utf8(out + o, u);
    } else {
      pend_len_ = put_utf8(pend_, u);
      pend_pos_ = 0;
    }
  }
  return o;
}

}  // namespace triage
