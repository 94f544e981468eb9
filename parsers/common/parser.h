#pragma once
// The contract of every parser: a pure function of one entry's bytes that adds typed facts
// to the bundle's fact tables and counts what it did and did not understand.
#include "bundle/byte_source.h"
#include "model/entry.h"
#include "model/host_facts.h"
#include "model/options.h"
#include "model/parse_stats.h"
#include "model/source_kind.h"

namespace triage {

struct ParseContext {
  const EntryInfo& entry;
  BundleFacts& facts;
  ParseStats& stats;
  const AnalyzeOptions& options;
  // A segment of a mixed paste: added to the numbers and offsets of lines read whole
  // (for_each_line), so evidence points into the original file.
  uint64_t line_base = 0;
  uint64_t offset_base = 0;
  // The pasted command whose output the segment is (`hccn_tool -i 3 -ip -g`): what a reader
  // takes from a file name in a bundle (the device of hccn-ip-3.txt), it takes from here.
  std::string_view command = {};
};

using ParseFn = void (*)(ParseContext&, ByteSource&);

}  // namespace triage
