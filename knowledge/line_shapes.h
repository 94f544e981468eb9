#pragma once
// knowledge/line-shapes.tsv: the line shapes the content sniffer counts (ingest/sniff.cpp),
// and knowledge/line-shape-samples.tsv: a line each shape must match and a near miss it
// must not. Format: docs/knowledge.md ("Line shapes").
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace triage {

constexpr std::string_view kLineShapesFile = "line-shapes.tsv";
constexpr std::string_view kLineShapeSamplesFile = "line-shape-samples.tsv";

struct LineShapeRow {
  std::string id;       // "plog", named by the sniffer's rules or generic
  std::string kind;     // a SourceKind name: what one line of the shape suggests
  std::string name;     // as a sniff reason prints it
  std::string pattern;  // RE2, unanchored, month names already in place of @MONTH@
};

struct LineShapeSample {
  std::string shape;
  bool match = true;  // false: a near miss
  std::string line;   // \t already a tab
  std::string where;  // "file:line"
};

// Rows in file order (the order decides which shape names one line's kind); problems as
// "file:line: message" (unknown kind, duplicate id, empty pattern).
std::vector<LineShapeRow> parse_line_shapes(std::string_view content, const std::string& name,
                                            std::vector<std::string>& errors);
std::vector<LineShapeSample> parse_line_shape_samples(std::string_view content, const std::string& name,
                                                      std::vector<std::string>& errors);

// The built-in shapes, which the sniffer uses (it has no --knowledge value).
const std::vector<LineShapeRow>& builtin_line_shapes();

// What `knowledge check` says of either file: the shapes and the samples are read together
// (the one given, the built-in other), patterns must compile, every shape needs a match and
// a near miss, every sample must do what it says, and samples must name shapes.
std::vector<std::string> check_line_shapes(std::string_view content, const std::string& name,
                                           size_t& samples_checked);

}  // namespace triage
