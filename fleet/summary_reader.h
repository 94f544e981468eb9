#pragma once
// Reads the per-node summaries `analyze --format summary` writes (schema
// ascend-triage-summary/1) back into model/node_summary.h. Untrusted input: every field
// `fleet` uses is checked, and a problem names the file and the JSON Pointer of the value.
#include <cstdint>
#include <string>
#include <vector>

#include "model/node_summary.h"

namespace triage::fleet {

struct LoadedNode {
  NodeSummary node;
  std::string source;  // the summary file it came from
};

// A summary holds a few kB per node; a larger file is refused before it is read.
constexpr uint64_t kMaxSummaryBytes = 256ull << 20;

class SummaryReader {
 public:
  SummaryReader();
  ~SummaryReader();
  // Appends the file's nodes to `out`; false with `error` ("FILE: /nodes/0/host: ...") when
  // the file cannot be read or is not a summary (then nothing is appended).
  bool read_file(const std::string& path, std::vector<LoadedNode>& out, std::string& error);
  // The same for text already in memory; `name` is used in errors.
  bool read_text(const std::string& text, const std::string& name, std::vector<LoadedNode>& out,
                 std::string& error);

 private:
  struct Impl;
  Impl* impl_;  // owns the simdjson parser, reused across files
};

}  // namespace triage::fleet
