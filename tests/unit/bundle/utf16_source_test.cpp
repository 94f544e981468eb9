#include <catch2/catch.hpp>
#include <string>

#include "bundle/utf16_source.h"

using namespace triage;

namespace {
// Hands out at most `step` bytes per read: transcoding must not depend on how input arrives.
class TrickleSource final : public ByteSource {
 public:
  TrickleSource(std::string data, size_t step) : data_(std::move(data)), step_(step) {}
  size_t read(char* buf, size_t n) override {
    size_t k = std::min({n, step_, data_.size() - pos_});
    data_.copy(buf, k, pos_);
    pos_ += k;
    return k;
  }

 private:
  std::string data_;
  size_t step_, pos_ = 0;
};

// Everything the source yields, read `chunk` bytes at a time.
std::string read_through(const std::string& input, size_t in_step, size_t chunk,
                         Utf16Source::Encoding* enc = nullptr) {
  TrickleSource in(input, in_step);
  Utf16Source src(in);
  if (enc) *enc = src.detect();
  std::string out;
  char buf[64];
  while (size_t k = src.read(buf, chunk)) out.append(buf, k);
  return out;
}

std::string utf16(const std::u16string& s, bool le, bool bom) {
  std::string out;
  if (bom) out += le ? "\xFF\xFE" : "\xFE\xFF";
  for (char16_t c : s) {
    char hi = static_cast<char>(c >> 8), lo = static_cast<char>(c & 0xFF);
    out += le ? lo : hi;
    out += le ? hi : lo;
  }
  return out;
}
}  // namespace

TEST_CASE("utf16 source: UTF-16 with or without a mark reads as the UTF-8 text", "[utf16]") {
  // ASCII, CJK (3 bytes), an emoji (a surrogate pair, 4 bytes), line ends.
  std::u16string text = u"[ERROR] RUNTIME 超时 \U0001F525 done\r\nline 2\n";
  std::string want = "[ERROR] RUNTIME \xE8\xB6\x85\xE6\x97\xB6 \xF0\x9F\x94\xA5 done\r\nline 2\n";
  for (bool le : {true, false}) {
    for (bool bom : {true, false}) {
      // Without a mark only NUL-interleaved ASCII is recognised: the text starts with ASCII.
      Utf16Source::Encoding enc;
      for (size_t step : {size_t{1}, size_t{3}, size_t{4096}}) {
        for (size_t chunk : {size_t{1}, size_t{2}, size_t{3}, size_t{64}}) {
          INFO("le " << le << " bom " << bom << " step " << step << " chunk " << chunk);
          CHECK(read_through(utf16(text, le, bom), step, chunk, &enc) == want);
          CHECK(enc == (le ? Utf16Source::Encoding::utf16le : Utf16Source::Encoding::utf16be));
        }
      }
    }
  }
}

TEST_CASE("utf16 source: other bytes pass through unchanged", "[utf16]") {
  Utf16Source::Encoding enc;
  std::string plain = "[INFO] GE(1,python3):2026-09-04-09:20:31.548.211 plain UTF-8 text\n";
  CHECK(read_through(plain, 5, 7, &enc) == plain);
  CHECK(enc == Utf16Source::Encoding::none);
  // An ELF header's first 18 bytes (the literal's own NUL is not one of them).
  static const char kElf[] = "\x7F" "ELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00";
  std::string binary(kElf, sizeof kElf - 1);
  CHECK(read_through(binary, 2, 64, &enc) == binary);
  CHECK(enc == Utf16Source::Encoding::none);
  // UTF-32LE's mark is not UTF-16's; a short NUL-interleaved start proves nothing.
  std::string utf32("\xFF\xFE\x00\x00" "a\x00\x00\x00", 8);
  CHECK(read_through(utf32, 64, 64, &enc) == utf32);
  CHECK(enc == Utf16Source::Encoding::none);
  std::string short_one("a\x00" "b\x00", 4);
  CHECK(read_through(short_one, 64, 64, &enc) == short_one);
  CHECK(enc == Utf16Source::Encoding::none);
  CHECK(read_through("", 1, 64, &enc).empty());
  CHECK(enc == Utf16Source::Encoding::none);
}

TEST_CASE("utf16 source: broken UTF-16 becomes U+FFFD, never lost or overrun", "[utf16]") {
  // A lone high surrogate, a lone low surrogate, then an odd last byte.
  std::string in = std::string("\xFF\xFE", 2) + std::string("a\x00\x00\xD8" "b\x00\x00\xDC" "c\x00" "d", 11);
  std::string fffd = "\xEF\xBF\xBD";
  for (size_t chunk : {size_t{1}, size_t{2}, size_t{64}})
    CHECK(read_through(in, 3, chunk) == "a" + fffd + "b" + fffd + "c" + fffd);
}
