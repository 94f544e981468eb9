#include <catch2/catch.hpp>

#include "bundle/decompress_source.h"
#include "bundle/entry_stream.h"
#include "bundle/line_reader.h"
#include "bundle/sha256.h"
#include "bundle/stored_source.h"
#include "bundle_test_util.h"

using namespace triage;
using namespace triage::testing;

namespace {

std::string numbered_lines(int n) {
  std::string s;
  for (int i = 1; i <= n; ++i) s += "line " + std::to_string(i) + " of the test data\n";
  return s;
}

struct Decoded {
  std::string data, error;
  std::string sha;
};

Decoded decode(const std::string& stored_bytes, Compression c) {
  StringSource raw(stored_bytes);
  StoredSource stored(raw);
  DecompressSource dec(stored, c);
  Decoded out;
  out.data = read_all(dec, 1 << 30);
  out.error = dec.error();
  out.sha = stored.sha256_hex();
  return out;
}

}  // namespace

TEST_CASE("stored source hashes every stored byte, peeked or read", "[bundle][sources]") {
  std::string data = numbered_lines(5000);
  StringSource raw(data);
  StoredSource stored(raw);
  CHECK(stored.peek(4) == "line");
  std::string got = read_all(stored, 1 << 30);
  CHECK(got == data);
  CHECK(stored.count() == data.size());
  CHECK(stored.tail() == data.substr(data.size() - 8));
  CHECK(stored.sha256_hex() == sha256_hex(data));
}

TEST_CASE("gzip and zstd members are decoded on the fly", "[bundle][sources]") {
  std::string data = numbered_lines(20000);
  for (Filter f : {Filter::gzip, Filter::zstd}) {
    std::string packed = compress(data, f);
    Decoded d = decode(packed, f == Filter::gzip ? Compression::gzip : Compression::zstd);
    CHECK(d.error.empty());
    CHECK(d.data == data);
    CHECK(d.sha == sha256_hex(packed));  // the hash is of the stored (compressed) bytes
  }
}

TEST_CASE("an empty gzip member decodes to nothing without complaint", "[bundle][sources]") {
  Decoded d = decode(compress("", Filter::gzip), Compression::gzip);
  CHECK(d.data.empty());
  CHECK(d.error.empty());
}

TEST_CASE("corrupt gzip data is reported, not silently shortened", "[bundle][sources]") {
  std::string data = numbered_lines(40000);
  std::string packed = compress(data, Filter::gzip);
  SECTION("bytes flipped in the middle") {
    for (size_t i = 0; i < 16; ++i) packed[packed.size() / 3 + i] ^= 0xA5;
    Decoded d = decode(packed, Compression::gzip);
    CHECK_FALSE(d.error.empty());
    CHECK(data.compare(0, 1000, d.data, 0, 1000) == 0);  // what came before the damage is kept
  }
  SECTION("the trailer's checksum changed") {
    packed[packed.size() - 8] ^= 1;
    Decoded d = decode(packed, Compression::gzip);
    CHECK(d.data == data);
    CHECK_THAT(d.error, Catch::Contains("trailer"));
  }
  SECTION("cut short") {
    packed.resize(packed.size() / 2);
    Decoded d = decode(packed, Compression::gzip);
    CHECK_FALSE(d.error.empty());
    CHECK(d.data.size() < data.size());
    CHECK(d.data.size() > 0);
  }
}

TEST_CASE("a truncated zstd member is reported", "[bundle][sources]") {
  std::string data = numbered_lines(40000);
  std::string packed = compress(data, Filter::zstd);
  packed.resize(packed.size() * 2 / 3);
  Decoded d = decode(packed, Compression::zstd);
  CHECK_FALSE(d.error.empty());
  CHECK(d.data.size() < data.size());
}

TEST_CASE("entry stream replays the sniffed head and applies the entry limit", "[bundle][sources]") {
  std::string data = numbered_lines(100);
  std::vector<char> head_buffer;
  ReadBudget budget{1 << 30};
  SECTION("head then the rest, nothing lost") {
    StringSource src(data);
    EntryStream s(src, 1 << 30, budget, head_buffer);
    CHECK(s.fill_head(50) == data.substr(0, 50));
    CHECK_FALSE(s.head_is_whole());
    CHECK(read_all(s, 1 << 20) == data);
    CHECK(s.cut() == EntryStream::Cut::none);
    CHECK(s.bytes() == data.size());
  }
  SECTION("a head holding the whole entry says so") {
    StringSource src(data);
    EntryStream s(src, 1 << 30, budget, head_buffer);
    CHECK(s.fill_head(data.size()) == data);
    CHECK(s.head_is_whole());
    CHECK(read_all(s, 1 << 20) == data);
  }
  SECTION("cut at the entry limit") {
    StringSource src(data);
    EntryStream s(src, 100, budget, head_buffer);
    s.fill_head(64);
    CHECK(read_all(s, 1 << 20) == data.substr(0, 100));
    CHECK(s.cut() == EntryStream::Cut::entry_limit);
    CHECK_THAT(s.error(), Catch::Contains("--max-entry-bytes"));
  }
  SECTION("exactly at the limit is not a cut") {
    StringSource src(data);
    EntryStream s(src, data.size(), budget, head_buffer);
    CHECK(read_all(s, 1 << 20) == data);
    CHECK(s.cut() == EntryStream::Cut::none);
  }
  SECTION("the total budget is shared and cuts too") {
    ReadBudget small{150};
    StringSource a(data), b(data);
    EntryStream first(a, 1 << 30, small, head_buffer);
    first.drain();
    CHECK(first.bytes() == 150);
    CHECK(first.cut() == EntryStream::Cut::total_limit);
    CHECK(small.total_exhausted);
    EntryStream second(b, 1 << 30, small, head_buffer);
    CHECK(second.fill_head(10).empty());
  }
}

TEST_CASE("overlong lines read through the entry stream are noted", "[bundle][sources]") {
  std::string data = "short\n" + std::string(5000, 'x') + "\nafter\n";
  std::vector<char> head_buffer;
  ReadBudget budget{1 << 30};
  StringSource src(data);
  EntryStream s(src, 1 << 30, budget, head_buffer);
  LineReader lines(s, 1000);
  Line l;
  int n = 0;
  while (lines.next(l)) ++n;
  CHECK(n == 3);
  REQUIRE(s.overlong_count() == 1);
  CHECK(s.overlong_samples()[0].line == 2);
  CHECK(s.overlong_samples()[0].offset == 6);
  CHECK(s.overlong_samples()[0].length == 5000);
}
