// What the knowledge compiles on first use: a signature's own regex, a matcher's set, and its
// literal prefilter only after SignatureMatcher::kPrefilterAfter lines. The answers are those of
// compiling everything at load; an override file's broken pattern is still reported at load.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "knowledge/knowledge.h"
#include "knowledge/lazy_regex.h"

using namespace triage;

namespace {

KnowledgeFile signature_file(const std::string& name, const std::string& pattern) {
  std::string json = R"J({"format": "ascend-triage-signatures", "version": 1, "signatures": [{
    "id": "test/lazy", "sources": ["plog"], "severity": "error", "category": "test",
    "outcome": "own", "title": "t", "explanation": "e", "next_steps": ["n"],
    "pattern": ")J" + pattern + R"J("}]})J";
  return {name, json};
}

}  // namespace

TEST_CASE("lazy regex: compiled once on first use, shared by copies; a broken one is false",
          "[knowledge][lazy]") {
  LazyRegex none;
  CHECK_FALSE(none);
  CHECK(none.get() == nullptr);
  LazyRegex good("boom (?P<n>\\d+)", RE2::Quiet);
  LazyRegex copy = good;
  const RE2* first = good.get();
  REQUIRE(first);
  CHECK(copy.get() == first);  // one compilation for every copy
  CHECK(good->NumberOfCapturingGroups() == 1);
  CHECK(RE2::PartialMatch("x boom 12", *copy));
  LazyRegex broken("boom (unclosed", RE2::Quiet);
  CHECK_FALSE(broken);
  CHECK_FALSE(broken.failed_at_load());  // lazy: only get() knows
  CHECK(LazyRegex::compiled(std::make_shared<const RE2>("a(", RE2::Quiet)).failed_at_load());
  CHECK_FALSE(LazyRegex::compiled(std::make_shared<const RE2>("a(", RE2::Quiet)));
  CHECK(LazyRegex::compiled(std::make_shared<const RE2>("a", RE2::Quiet)));
}

TEST_CASE("knowledge: an override's broken pattern is reported at load; the built-in files load without errors",
          "[knowledge][lazy]") {
  // Not the built-in content: compiled at load, so the problem is named.
  KnowledgeBase bad = build_knowledge({signature_file("signatures/plog.json", "boom (unclosed")}, "test");
  REQUIRE(bad.errors.size() == 1);
  CHECK(bad.errors[0].find("pattern does not compile") != std::string::npos);
  REQUIRE(bad.signatures.size() == 1);
  CHECK_FALSE(bad.signatures[0].re);
  CHECK(bad.plog_matcher.empty());  // the set leaves out what does not compile
  CHECK_FALSE(bad.plog_matcher.any("boom 1"));

  KnowledgeBase good = build_knowledge({signature_file("signatures/plog.json", "boom (?P<n>\\\\d+)")}, "test");
  CHECK(good.errors.empty());
  CHECK(good.plog_matcher.any("x boom 12"));
  CHECK(good.kernel_matcher.empty());  // no kernel signature

  // The built-in files as shipped compile on first use: every signature compiles, as the
  // tests' `knowledge check` of each file also says.
  KnowledgeBase builtin = build_knowledge(builtin_knowledge_files(), "built-in");
  CHECK(builtin.errors.empty());
  REQUIRE(builtin.signatures.size() >= 20);
  for (const Signature& s : builtin.signatures) {
    INFO(s.id);
    CHECK(s.re);
  }
}

TEST_CASE("signature matcher: the same answers before and after the prefilter is built",
          "[knowledge][lazy][prefilter]") {
  KnowledgeBase kb = build_knowledge({signature_file("signatures/plog.json", "report three minutes timeout")}, "test");
  REQUIRE(kb.errors.empty());
  const SignatureMatcher& m = kb.plog_matcher;
  const std::vector<std::string> texts = {
      "SynchronizeExecutedTask: report three minutes timeout! stream_id=3",  // matches
      "tsched: task finished",                                                // no atom
      "report three minutes",                                                 // atom, no match
  };
  size_t differ = 0, matched = 0;
  for (uint64_t i = 0; i < SignatureMatcher::kPrefilterAfter + 3000; ++i) {
    const std::string& t = texts[i % texts.size()];
    bool fast = m.any(t), plain = m.any_unfiltered(t);
    differ += fast != plain;
    matched += fast;
  }
  CHECK(differ == 0);
  CHECK(matched == (SignatureMatcher::kPrefilterAfter + 3000 + 2) / 3);
  // Past the warm-up the prefilter is on and drops the line without the signature's atoms.
  CHECK(m.prefilter().enabled());
  CHECK_FALSE(m.prefilter().may_match(texts[1]));
  CHECK(m.prefilter().may_match(texts[0]));
}
