// Storm folding in job output (issue 35): a line a job signature matches, repeated past
// kPlogKeptPerTemplate kept lines of its template and pid, is counted on the last kept hit,
// not kept, as plog lines are (tests/unit/parsers/plog/plog_storm_test.cpp).
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <map>
#include <string>
#include <utility>

#include "python_test_util.h"

using namespace triage;
using triage::pytest::parse_python_text;

namespace {

// tests/data/real/ascend-pytorch-52-e60108-conv3dtranspose-310p/output.txt, relayed by a
// launcher that names the worker's pid (vLLM's `(EngineCore_DP0 pid=N)`), as a job that fails
// on every step for hours prints it; the step number varies.
std::string err_line(int pid, int i) {
  return fmt::format("(EngineCore_DP0 pid={}) RuntimeError: The Inner error is reported as above. The "
                     "process exits for this inner error, and the current working operator name is "
                     "Conv3DTranspose. step {}\n",
                     pid, i);
}

struct Count {
  uint64_t kept = 0, lines = 0;
};

std::map<std::pair<std::string, int64_t>, Count> hits_by_id_and_pid(const BundleFacts& f) {
  std::map<std::pair<std::string, int64_t>, Count> out;
  for (const auto& h : f.logs.signature_hits) {
    Count& c = out[{h.id, h.pid.value_or(-1)}];
    ++c.kept;
    c.lines += 1 + h.repeats.lines;
  }
  return out;
}

}  // namespace

TEST_CASE("job output: a storm of one template keeps its first hits and counts the rest",
          "[python][storm]") {
  const int n = 300;
  std::string text;
  for (int i = 0; i < n; ++i) text += err_line(21853, i);
  for (int i = 0; i < 3; ++i) text += err_line(21866, i);  // another process: its own template
  auto p = parse_python_text(text);
  auto hits = hits_by_id_and_pid(p.facts);
  REQUIRE_FALSE(hits.empty());
  bool storm_seen = false;
  for (const auto& [key, c] : hits) {
    INFO(key.first << " pid " << key.second);
    if (key.second == 21866) {
      CHECK(c.kept == 3);
      CHECK(c.lines == 3);
      continue;
    }
    REQUIRE(key.second == 21853);
    storm_seen = true;
    CHECK(c.kept == kPlogKeptPerTemplate);
    CHECK(c.lines == static_cast<uint64_t>(n));  // every line counted once: none dropped
  }
  CHECK(storm_seen);
  // The count sits on the last kept line of the template.
  for (const auto& h : p.facts.logs.signature_hits)
    if (h.repeats.lines) CHECK(h.evidence.line == kPlogKeptPerTemplate);
}

TEST_CASE("job output: fewer lines than the fold limit are each kept", "[python][storm]") {
  std::string text;
  for (int i = 0; i < 10; ++i) text += err_line(21853, i);
  auto p = parse_python_text(text);
  auto hits = hits_by_id_and_pid(p.facts);
  REQUIRE_FALSE(hits.empty());
  for (const auto& [key, c] : hits) {
    CHECK(c.kept == 10);
    CHECK(c.lines == 10);
  }
}
