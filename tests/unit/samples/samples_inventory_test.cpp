// The classifier on the samples: every entry of every sample gets the kind listed in
// samples/expected-kinds.tsv, and nothing is left unknown. Hidden ([.integration]) until the
// classifier lands; the lead enables these at merge by dropping the leading dot.
#include <catch2/catch.hpp>

#include "ingest/load.h"
#include "model/source_kind.h"
#include "samples_support.h"

using namespace samples_test;

namespace {

void check_sample(const std::string& name) {
  std::map<std::string, std::string> expected;
  for (const auto& e : read_expected_kinds())
    if (e.sample == name) expected[e.path] = e.kind;
  REQUIRE_FALSE(expected.empty());

  triage::AnalyzeOptions options;
  triage::LoadResult result = triage::load_evidence({sample_path(name).string()}, options);
  CHECK(result.errors.empty());
  CHECK(result.recognised_any);
  REQUIRE(result.evidence.bundles.size() == 1);
  const auto& entries = result.evidence.bundles[0].inventory.entries;

  size_t unknown = 0;
  std::set<std::string> seen;
  for (const auto& entry : entries) {
    if (entry.info.type != triage::EntryType::file) continue;
    INFO(name << ": " << entry.info.path << " (" << entry.reason << ")");
    seen.insert(entry.info.path);
    if (entry.kind == triage::SourceKind::unknown) ++unknown;
    auto want = expected.find(entry.info.path);
    REQUIRE(want != expected.end());
    CHECK(std::string(triage::to_string(entry.kind)) == want->second);
  }
  CHECK(unknown == 0);
  for (const auto& [path, kind] : expected) {
    INFO(name << ": expected entry " << path << " (" << kind << ")");
    CHECK(seen.count(path) == 1);
  }
}

}  // namespace

TEST_CASE("inventory classifies incident-910b-before-reboot as expected", "[integration][samples]") {
  check_sample("incident-910b-before-reboot");
}

TEST_CASE("inventory classifies incident-910b-after-reboot as expected", "[integration][samples]") {
  check_sample("incident-910b-after-reboot");
}

TEST_CASE("inventory classifies healthy-first-step-compile as expected", "[integration][samples]") {
  check_sample("healthy-first-step-compile");
}

TEST_CASE("inventory classifies healthy-after-reinstall as expected", "[integration][samples]") {
  check_sample("healthy-after-reinstall");
}

TEST_CASE("inventory classifies the pasted loose files by content", "[integration][samples]") {
  check_sample("incident-loose-files");
}
