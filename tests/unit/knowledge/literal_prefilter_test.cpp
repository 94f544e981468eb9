// The signature sets' literal prefilter (knowledge/literal_prefilter.h, issue 35): it may only
// drop a text that no signature matches. Checked on every line (and the message parts after
// "] " and ": ") of the real excerpts, the samples and the fixtures, on every signature's
// samples and near misses, and on near misses built around the stride of its scan.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "knowledge/knowledge.h"
#include "knowledge/literal_prefilter.h"

using namespace triage;
namespace fs = std::filesystem;

namespace {

const SignatureMatcher* matchers(const KnowledgeBase& kb, size_t i) {
  const SignatureMatcher* all[] = {&kb.plog_matcher, &kb.kernel_matcher, &kb.job_matcher,
                                   &kb.npu_smi_matcher};
  return i < 4 ? all[i] : nullptr;
}

// Every text the readers could hand a matcher from this line: the line, and what follows each
// of its first "] " and ": " separators (the plog message, the kernel message, a job line's).
template <typename Fn>
void texts_of(std::string_view line, Fn&& fn) {
  fn(line);
  for (std::string_view sep : {std::string_view("] "), std::string_view(": ")}) {
    size_t at = 0;
    for (int k = 0; k < 6; ++k) {
      at = line.find(sep, at);
      if (at == std::string_view::npos) break;
      at += sep.size();
      fn(line.substr(at));
    }
  }
}

}  // namespace

TEST_CASE("literal prefilter: the built-in sets are filtered, and drop only lines no signature matches",
          "[knowledge][signature][prefilter]") {
  const KnowledgeBase& kb = knowledge_for("");
  CHECK(kb.plog_matcher.prefilter().enabled());
  CHECK(kb.kernel_matcher.prefilter().enabled());
  CHECK(kb.job_matcher.prefilter().enabled());
  size_t texts = 0, dropped = 0, matched = 0, differ = 0;
  auto check = [&](std::string_view text) {
    for (size_t i = 0; i < 4; ++i) {
      const SignatureMatcher& m = *matchers(kb, i);
      if (m.empty()) continue;
      ++texts;
      const bool fast = m.any(text), plain = m.any_unfiltered(text);
      if (fast != plain) {
        ++differ;
        UNSCOPED_INFO("matcher " << i << " differs on: " << text);
      }
      if (!m.prefilter().may_match(text)) ++dropped;
      if (plain) ++matched;
    }
  };
  for (const char* root : {"/data/real", "/fixtures"})
    for (const auto& e : fs::recursive_directory_iterator(std::string(TEST_DATA_DIR) + root)) {
      if (!e.is_regular_file()) continue;
      std::ifstream in(e.path(), std::ios::binary);
      for (std::string line; std::getline(in, line);) texts_of(line, check);
    }
  for (const auto& e : fs::recursive_directory_iterator(SAMPLES_DIR)) {
    if (!e.is_regular_file() || e.file_size() > (4u << 20)) continue;
    std::ifstream in(e.path(), std::ios::binary);
    for (std::string line; std::getline(in, line);) texts_of(line, check);
  }
  for (const Signature& s : kb.signatures) {
    for (const auto& t : s.samples_match) texts_of(t, check);
    for (const auto& t : s.samples_near_miss) texts_of(t, check);
  }
  CHECK(differ == 0);
  CHECK(matched > 1000);
  CHECK(dropped > texts / 2);  // the point of it: most texts never reach the DFA
}

TEST_CASE("literal prefilter: an atom is found at every offset and case, a near miss is dropped",
          "[knowledge][prefilter]") {
  RE2::Options opts;
  opts.set_log_errors(false);
  LiteralPrefilter f({"Send msg failed", R"(Time out.*\(dev_id=)", "hdc connect down, devid"}, opts);
  REQUIRE(f.enabled());
  CHECK(f.min_len() >= 4);
  for (size_t pad = 0; pad < 12; ++pad) {
    std::string lead(pad, 'x');
    CHECK(f.may_match(lead + "Send msg failed"));
    CHECK(f.may_match(lead + "SEND MSG FAILED (case folded: the regexes decide)"));
    CHECK(f.may_match(lead + "Time out. (dev_id=3)" + lead));
    CHECK_FALSE(f.may_match(lead + "Send msg faile"));
    CHECK_FALSE(f.may_match(lead + "Send msg_failed" + lead));
    CHECK_FALSE(f.may_match(lead + "hdc connect dow" + lead));
  }
  CHECK_FALSE(f.may_match(""));
  CHECK_FALSE(f.may_match("Send"));
  CHECK_FALSE(f.may_match(std::string(5000, 'S')));
}

TEST_CASE("literal prefilter: off when a pattern has no atom; Unicode case folds are passed on",
          "[knowledge][prefilter]") {
  RE2::Options opts;
  opts.set_log_errors(false);
  // \d+ needs no literal: it matches lines the scan cannot see, so the filter stays off.
  LiteralPrefilter off({"Send msg failed", R"(code \d+|\d{3})"}, opts);
  CHECK_FALSE(off.enabled());
  CHECK(off.may_match("123"));
  CHECK_FALSE(LiteralPrefilter({"caf\u00e9 failed"}, opts).enabled());  // a non-ASCII atom
  // (?i)k also matches U+212A KELVIN SIGN, and (?i)s U+017F LONG S: such a line goes to the regex.
  LiteralPrefilter folded({"(?i)kill process"}, opts);
  REQUIRE(folded.enabled());
  std::string kelvin = "\xE2\x84\xAAill process", long_s = "kill proce\xC5\xBF\xC5\xBF";
  CHECK(RE2::PartialMatch(kelvin, "(?i)kill process"));
  CHECK(RE2::PartialMatch(long_s, "(?i)kill process"));
  CHECK(folded.may_match(kelvin));
  CHECK(folded.may_match(long_s));
  CHECK(folded.may_match("KILL Process"));
  CHECK_FALSE(folded.may_match("kill proc"));
  // A case-sensitive set does not pay for it.
  LiteralPrefilter exact({"kill process"}, opts);
  CHECK_FALSE(exact.may_match(kelvin));
}
