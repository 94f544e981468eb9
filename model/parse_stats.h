#pragma once
// Per-entry counts: every line is parsed, unrecognised or malformed — never silently dropped.
#include <cstdint>
#include <string>
#include <vector>

#include "model/evidence.h"
#include "model/text_segment.h"

namespace triage {

struct ParseStats {
  uint64_t lines = 0;         // lines seen (equals the entry's newline count, plus one
                              // for a final unterminated line)
  uint64_t parsed = 0;        // understood lines
  uint64_t unrecognised = 0;  // well-formed but not a line this parser knows
  uint64_t malformed = 0;     // damaged: truncated header, bad time, overlong, NUL bytes
  uint64_t bytes = 0;         // decompressed bytes read
  // Shape counts (issue 19): a line is recognised only when a line reader recognised its
  // shape (plog header, error report, traceback frame, table row, prompt), never because it
  // sits in a file or segment of a known kind. lines_recognised + lines_unrecognised equals
  // the lines a shape-aware reader looked at; readers that do not count leave both at 0.
  uint64_t lines_recognised = 0;
  uint64_t lines_unrecognised = 0;
  std::string not_collected;  // non-empty when the file holds a tool's error text
  std::string variant;        // detected format variant ("plog", "journal-json", ...)
  std::vector<EvidenceRef> samples_of_malformed;  // first few, for the report
  std::vector<TextSegment> segments;  // a mixed paste's segments, in file order

  static constexpr size_t kMaxMalformedSamples = 5;
  void note_malformed(std::string_view entry, uint64_t line, uint64_t offset,
                      std::string_view text) {
    ++malformed;
    if (samples_of_malformed.size() < kMaxMalformedSamples)
      samples_of_malformed.push_back(make_evidence(entry, line, offset, text));
  }
};

}  // namespace triage
