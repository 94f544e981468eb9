#pragma once
// Test support for the base parsers: run one parser on a string as if it were the bundle
// entry `path`, and count a fixture's own newlines.
#include <algorithm>
#include <string>
#include <string_view>

#include "bundle/byte_source.h"
#include "ingest/registry.h"

namespace triage::test {

inline uint64_t newlines(std::string_view s) {
  return static_cast<uint64_t>(std::count(s.begin(), s.end(), '\n'));
}

// Parses `data` as entry `path` into `facts`; returns the entry's statistics.
inline ParseStats run_parser(ParseFn fn, std::string_view path, std::string_view data,
                             BundleFacts& facts, const AnalyzeOptions& options = {}) {
  EntryInfo entry;
  entry.path = std::string(path);
  entry.display = "bundle/" + entry.path;
  ParseStats stats;
  ParseContext ctx{entry, facts, stats, options};
  StringSource src(data);
  fn(ctx, src);
  return stats;
}

inline ParseStats run_kind(SourceKind kind, std::string_view path, std::string_view data,
                           BundleFacts& facts, const AnalyzeOptions& options = {}) {
  ParseFn fn = parser_for(kind);
  if (!fn) throw std::logic_error("no parser registered for this kind");
  return run_parser(fn, path, data, facts, options);
}

}  // namespace triage::test
