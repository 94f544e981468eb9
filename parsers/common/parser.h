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
};

using ParseFn = void (*)(ParseContext&, ByteSource&);

}  // namespace triage
