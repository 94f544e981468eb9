// bundle/read_ahead: the sink sees the same calls, bytes, errors and hashes as with one thread,
// also when it stops the walk, leaves a member half-read or throws.
#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "bundle/read_ahead.h"
#include "bundle/sha256.h"
#include "bundle/stored_source.h"

using namespace triage;

namespace {

// A source that fails after its bytes, like a truncated archive member.
class FailingSource final : public ByteSource {
 public:
  FailingSource(std::string data, std::string error) : data_(std::move(data)), fail_(std::move(error)) {}
  size_t read(char* buf, size_t n) override {
    size_t k = std::min(n, data_.size() - pos_);
    if (k == 0) {
      error_ = fail_;
      return 0;
    }
    std::copy_n(data_.data() + pos_, k, buf);
    pos_ += k;
    return k;
  }

 private:
  std::string data_, fail_;
  size_t pos_ = 0;
};

// An input of four members: small, large (many chunks, with a warning read with its data, as
// libarchive gives one), no data, failing; then damage. Like the real readers, it stops when
// the sink says so and returns "" then.
std::string walk_five(MemberSink& sink, InputDescription& d) {
  d = {InputForm::archive, "test tar"};
  sink.on_input(d);
  auto member = [&](const char* name, ByteSource* src) {
    MemberHeader h;
    h.raw_name = name;
    return sink.on_member(h, src);
  };
  StringSource small("one line\n");
  if (!member("a.log", &small)) return "";
  std::string big(3 * 1024 * 1024 + 17, 'x');
  for (size_t i = 0; i < big.size(); i += 4096) big[i] = '\n';
  StringSource large(big);
  bool go_on = member("b.log", &large);
  sink.on_member_warning("a warning of b.log");  // read_archive passes it on before it stops
  if (!go_on) return "";
  if (!member("dir", nullptr)) return "";
  FailingSource failing("half a line", "truncated gzip stream");
  if (!member("c.log.gz", &failing)) return "";
  sink.on_input_damaged("c.log.gz", 1234, "damaged tar header");
  return "";
}

// Records every call; reads `read_limit` bytes of each member (all by default).
struct Recorder final : MemberSink {
  std::vector<std::string> calls;
  size_t read_limit = ~size_t{0};
  size_t stop_after = ~size_t{0};
  size_t throw_at = ~size_t{0};
  void on_input(const InputDescription& d) override { calls.push_back("input " + d.format); }
  bool on_member(const MemberHeader& h, ByteSource* data) override {
    if (calls.size() == throw_at) throw std::runtime_error("sink failed");
    std::string call = "member " + h.raw_name;
    if (data) {
      StoredSource stored(*data);
      std::string bytes;
      char buf[1000];
      while (bytes.size() < read_limit) {
        size_t k = stored.read(buf, std::min(sizeof buf, read_limit - bytes.size()));
        if (k == 0) break;
        bytes.append(buf, k);
      }
      call += " bytes " + std::to_string(bytes.size()) + " error '" + stored.error() + "'";
      if (bytes.size() < read_limit && stored.error().empty()) {
        std::string sha = stored.sha256_hex();  // once: the one-thread hasher starts over
        call += " sha " + sha + (sha == sha256_hex(bytes) ? " ok" : " WRONG");
      }
    }
    calls.push_back(call);
    return calls.size() < stop_after;
  }
  void on_member_warning(std::string_view m) override { calls.push_back("warning " + std::string(m)); }
  void on_input_damaged(std::string_view last, uint64_t offset, std::string_view m) override {
    calls.push_back("damaged " + std::string(last) + " " + std::to_string(offset) + " " + std::string(m));
  }
};

std::vector<std::string> run(bool ahead, Recorder r, std::string* result = nullptr) {
  InputDescription d;
  std::string out = ahead ? read_ahead(walk_five, r, d, 512 * 1024) : walk_five(r, d);
  if (result) *result = out;
  r.calls.push_back("described " + d.format);
  return r.calls;
}

}  // namespace

TEST_CASE("read ahead: the same calls, bytes, errors and hashes as one thread", "[bundle][threads]") {
  std::string one_result = "not run", two_result = "not run";
  auto one = run(false, Recorder{}, &one_result);
  auto two = run(true, Recorder{}, &two_result);
  CHECK(two == one);
  CHECK(two_result == one_result);
  REQUIRE(two.size() == 8);
  CHECK(two[2].find("bytes 3145745 error '' sha ") == 13);
  CHECK(two[2].substr(two[2].size() - 3) == " ok");
  CHECK(two[5] == "member c.log.gz bytes 11 error 'truncated gzip stream'");
}

TEST_CASE("read ahead: a sink that stops or leaves members half-read", "[bundle][threads]") {
  for (size_t stop_after : {1, 2, 3, 4}) {
    INFO("stop after call " << stop_after);
    Recorder r;
    r.stop_after = stop_after;
    std::string one_result, two_result;
    auto one = run(false, r, &one_result);
    CHECK(run(true, r, &two_result) == one);
    CHECK(two_result == one_result);
  }
  Recorder half;
  half.read_limit = 700000;  // b.log is left after some 256 KiB chunks
  auto one = run(false, half);
  CHECK(run(true, half) == one);
  CHECK(one[2] == "member b.log bytes 700000 error ''");
}

TEST_CASE("read ahead: an exception of the sink or of the walk reaches the caller", "[bundle][threads]") {
  Recorder r;
  r.throw_at = 2;  // inside the large member
  InputDescription d;
  CHECK_THROWS_WITH(read_ahead(walk_five, r, d, 512 * 1024), "sink failed");
  Recorder quiet;
  auto failing_walk = [](MemberSink& sink, InputDescription&) -> std::string {
    StringSource s("x\n");
    MemberHeader h;
    h.raw_name = "x.log";
    sink.on_member(h, &s);
    throw std::runtime_error("walk failed");
  };
  CHECK_THROWS_WITH(read_ahead(failing_walk, quiet, d), "walk failed");
  CHECK(quiet.calls == std::vector<std::string>{"member x.log bytes 2 error '' sha " + sha256_hex("x\n") + " ok"});
}
