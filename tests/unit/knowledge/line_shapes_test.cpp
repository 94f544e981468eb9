// knowledge/line-shapes.tsv and its samples: the built-in files pass their check, a broken
// row or sample is named by file and line, and a shape the sniffer's rules do not name is
// generic: one row (with its samples) makes a new kind of text recognised.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "ingest/classify.h"
#include "knowledge/knowledge.h"
#include "knowledge/line_shapes.h"

using namespace triage;

namespace {

std::string builtin(std::string_view name) {
  for (const auto& f : builtin_knowledge_files())
    if (f.name == name) return f.content;
  return {};
}

bool any_contains(const std::vector<std::string>& v, std::string_view s) {
  for (const auto& x : v)
    if (x.find(s) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("line shapes: the built-in shapes and samples pass their check", "[line_shapes]") {
  size_t samples = 0;
  CHECK(check_line_shapes(builtin(kLineShapesFile), std::string(kLineShapesFile), samples).empty());
  CHECK(samples >= 2 * builtin_line_shapes().size());  // a match and a near miss each, at least
  CHECK(builtin_line_shapes().front().id == "plog");    // file order is precedence order
}

TEST_CASE("line shapes: a wrong kind, a missing near miss and a failing sample are named", "[line_shapes]") {
  std::string shapes = builtin(kLineShapesFile);
  shapes += "acme\tno_such_kind\tAcme log\t^ACME \\d+\n";
  shapes += "acme2\tsyslog\tAcme log 2\t^ACME2 \\d+\n";
  size_t samples = 0;
  auto problems = check_line_shapes(shapes, "line-shapes.tsv", samples);
  CHECK(any_contains(problems, "kind 'no_such_kind' is not a source kind"));
  CHECK(any_contains(problems, "shape acme2 needs a match and a near_miss sample (has 0 and 0)"));

  std::string bad_samples = builtin(kLineShapeSamplesFile);
  bad_samples += "plog\tmatch\tjust some words\n";     // does not match
  bad_samples += "kv\tnear_miss\tkey=value\n";          // matches its near miss
  bad_samples += "nothing\tmatch\tx\n";                 // no such shape
  problems = check_line_shapes(bad_samples, "line-shape-samples.tsv", samples);
  CHECK(any_contains(problems, "shape plog does not match its sample"));
  CHECK(any_contains(problems, "shape kv matches its near miss"));
  CHECK(any_contains(problems, "no shape 'nothing'"));
}

TEST_CASE("line shapes: a row the rules do not name makes its kind on a majority of lines", "[line_shapes]") {
  const std::string text = "link status: UP\n";  // hccn_tool -i 0 -link -g, as the stub prints it
  CHECK(sniff_content(text, true).kind == SourceKind::unknown);

  std::vector<std::string> errors;
  auto rows = parse_line_shapes(builtin(kLineShapesFile) + "hccn_link_status\thccn_link\thccn_tool -link\t^link status: (?:UP|DOWN)$\n",
                                "line-shapes.tsv", errors);
  REQUIRE(errors.empty());
  SniffResult r = sniff_content_with_shapes(rows, text, true);
  CHECK(r.kind == SourceKind::hccn_link);
  CHECK(r.reason == "1 of 1 lines are hccn_tool -link lines (first at line 1)");
  // A minority of such lines among prose is not enough.
  CHECK(sniff_content_with_shapes(rows, "link status: UP\nsome words\nmore words\n", true).kind ==
        SourceKind::unknown);

  // A shape the sniffer's rules name cannot be dropped from the file.
  rows.erase(rows.begin());
  CHECK_THROWS_AS(sniff_content_with_shapes(rows, text, true), std::logic_error);
}
