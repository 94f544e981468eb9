#include <catch2/catch.hpp>

#include "model/pep440.h"

using namespace triage;

namespace {
int cmp(const char* a, const char* b) {
  auto x = parse_pep440(a), y = parse_pep440(b);
  REQUIRE(x);
  REQUIRE(y);
  return compare_pep440(*x, *y);
}
}  // namespace

TEST_CASE("PEP 503 names: case, runs of - _ . are one dash") {
  CHECK(pep503_normalize("torch-npu") == "torch-npu");
  CHECK(pep503_normalize("torch_npu") == "torch-npu");
  CHECK(pep503_normalize("Torch.__NPU") == "torch-npu");
  CHECK(pep503_normalize("PyYAML") == "pyyaml");
}

TEST_CASE("PEP 440 parse: wheel versions of torch_npu and their canonical text") {
  auto v = parse_pep440("2.9.0.post6");
  REQUIRE(v);
  CHECK(v->release == std::vector<int64_t>{2, 9, 0});
  CHECK(v->post == 6);
  CHECK(v->str() == "2.9.0.post6");
  CHECK(parse_pep440("2.1.0.post8.dev20241009")->str() == "2.1.0.post8.dev20241009");
  CHECK(parse_pep440("2.9.0+git2ab7354")->str() == "2.9.0+git2ab7354");
  CHECK(parse_pep440("2.9.0+git2ab7354")->public_str() == "2.9.0");
  CHECK(parse_pep440("1.11.0.rc2")->str() == "1.11.0rc2");
  CHECK(parse_pep440("2.1.0-rc1")->str() == "2.1.0rc1");
  CHECK(parse_pep440("V1.0-1")->str() == "1.0.post1");  // implicit post, leading v
  CHECK(parse_pep440("1.0.Alpha")->str() == "1.0a0");
  CHECK(parse_pep440("1!2.0")->epoch == 1);
  CHECK(parse_pep440(" 2.8.0.post4 \n"));
}

TEST_CASE("PEP 440 parse refuses what is not a version") {
  CHECK_FALSE(parse_pep440(""));
  CHECK_FALSE(parse_pep440("latest"));
  CHECK_FALSE(parse_pep440("8.3.RC1.alpha001x y"));
  CHECK_FALSE(parse_pep440("2.9.0+"));
  CHECK_FALSE(parse_pep440("2.9.0+a..b"));
  CHECK_FALSE(parse_pep440("99999999999999999999999.0"));
}

TEST_CASE("PEP 440 ordering") {
  CHECK(cmp("1.0.dev1", "1.0a1") < 0);
  CHECK(cmp("1.0a1", "1.0b1") < 0);
  CHECK(cmp("1.0b1", "1.0rc1") < 0);
  CHECK(cmp("1.0rc1", "1.0") < 0);
  CHECK(cmp("1.0", "1.0+local") < 0);
  CHECK(cmp("1.0+local", "1.0.post1.dev1") < 0);
  CHECK(cmp("1.0.post1.dev1", "1.0.post1") < 0);
  CHECK(cmp("2.1.0.post8.dev20241009", "2.1.0.post8") < 0);
  CHECK(cmp("2.1.0.post7", "2.1.0.post8") < 0);
  CHECK(cmp("2.1.0.post10", "2.1.0.post8") > 0);  // numbers, not text
  CHECK(cmp("2.10.0", "2.9.0.post6") > 0);
  CHECK(cmp("2.9", "2.9.0") == 0);
  CHECK(cmp("1!0.1", "2.0") > 0);
  CHECK(cmp("1.0+abc.5", "1.0+abc.10") < 0);
  CHECK(cmp("1.0+5", "1.0+abc") > 0);  // numeric local segments sort above alphanumeric
  auto a = parse_pep440("2.9.0.post6+git2ab7354"), b = parse_pep440("2.9.0.post6");
  CHECK(same_public_version(*a, *b));
  CHECK_FALSE(same_public_version(*parse_pep440("2.8.0.post4"), *parse_pep440("2.8.0.post2")));
}
