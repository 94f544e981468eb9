// The analyzer reads the collector's secret rules (knowledge/secret-rules.tsv) with RE2: on the
// collector's own samples (tests/collector/secret-samples.tsv) it must give what sed gives.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "knowledge/secret_rules.h"
#include "model/strings.h"
#include "reports/redact.h"

using namespace triage;

namespace {

// The samples go through printf %b in the collector test: \n, \t and \\ here too.
std::string unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == 'n' || s[i + 1] == 't' || s[i + 1] == '\\')) {
      out += s[i + 1] == 'n' ? '\n' : s[i + 1] == 't' ? '\t' : '\\';
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

struct Sample {
  std::string where, kind, input, expected;
  size_t line = 0;
};

std::vector<Sample> samples() {
  std::ifstream in(std::string(TEST_DATA_DIR) + "/collector/secret-samples.tsv");
  std::vector<Sample> out;
  std::string line;
  size_t n = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    auto f = split(line, '\t');
    if (!header) {
      header = true;
      continue;
    }
    REQUIRE(f.size() >= 3);
    Sample s{std::string(f[0]), std::string(f[1]), unescape(f[2]), f.size() > 3 ? unescape(f[3]) : "", n};
    if (s.kind == "near_miss") s.expected = s.input;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

TEST_CASE("secret rules: RE2 masks the collector's log samples as sed does", "[redact][security]") {
  const SecretRules& rules = secret_rules_for("");
  REQUIRE(rules.rules.size() >= 9);
  auto all = samples();
  REQUIRE(all.size() >= 40);
  size_t logs = 0;
  for (const auto& s : all) {
    if (s.where != "log") continue;
    ++logs;
    std::string text = s.input;
    size_t masked = rules.mask(text);
    INFO("secret-samples.tsv:" << s.line);
    CHECK(text == s.expected);
    CHECK((masked > 0) == (s.kind == "match"));
  }
  CHECK(logs >= 10);
}

TEST_CASE("secret rules: near misses stay byte for byte; every rule masks a sample", "[redact][security]") {
  const SecretRules& rules = secret_rules_for("");
  std::map<std::string, int> fired;
  for (const auto& s : samples()) {
    // Arguments are checked one by one, as the collector masks each record.
    for (auto part : s.where == "arg" ? split(s.input, '|') : std::vector<std::string_view>{s.input}) {
      std::string text(part);
      if (s.kind == "near_miss") {
        INFO("secret-samples.tsv:" << s.line);
        CHECK(rules.mask(text) == 0);
        CHECK(text == part);
        continue;
      }
      for (const auto& r : rules.rules) {
        SecretRules one;
        one.rules.push_back(r);
        std::string copy(part);
        if (one.mask(copy) > 0) ++fired[r.id];
      }
    }
  }
  for (const auto& r : rules.rules) {
    INFO(r.id);
    CHECK(fired[r.id] > 0);
  }
}

TEST_CASE("secret rules: the loader refuses what sed and RE2 would read differently", "[redact][security]") {
  std::vector<std::string> errors;
  std::string header = "id\ttrigger\tpattern\tafter\n";
  parse_secret_rules(header + "a\tx\t(x=)[^\\s]+\t\n", "s.tsv", errors);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("s.tsv:2: a backslash inside brackets") == 0);
  errors.clear();
  parse_secret_rules(header + "a\tX\t(x=)y\t\nb\tx\tx=y\t\nc\tx\t(x=)(y)\t3\nd\tx\t(x=\t\n", "s.tsv", errors);
  REQUIRE(errors.size() == 4);
  CHECK(errors[0].find("lower-case") != std::string::npos);
  CHECK(errors[1].find("no group 1") != std::string::npos);
  CHECK(errors[2].find("after must name") != std::string::npos);
  CHECK(errors[3].find("s.tsv:5: pattern:") == 0);
}

TEST_CASE("redact: secrets in evidence are masked before names; the note counts them", "[redact][security]") {
  Redactor r;
  std::string s = "[ERROR] upload to https://alice:pw0rd@obs.example.com failed; token=abc123 password: hunter2";
  r.apply(s);
  CHECK(s == "[ERROR] upload to https://<redacted>@obs.example.com failed; token=<redacted> password: <redacted>");
  CHECK(r.secrets() == 3);
  CHECK(r.note().find("3 secret values masked as <redacted> by the secret rules") != std::string::npos);
}
