#pragma once
// How a parser family declares what it reads: one row per source kind (the kind, its parser,
// one sentence), and the family's finishing step once the whole bundle is read. Each family
// keeps its rows in parsers/<family>/kinds.h; ingest/registry.cpp joins them and checks at
// compile time that every SourceKind has exactly one row.
#include <span>
#include <string_view>

#include "model/host_facts.h"
#include "model/options.h"
#include "model/source_kind.h"
#include "parsers/common/parser.h"

namespace triage {

struct KindRow {
  SourceKind kind;
  ParseFn parse;                 // nullptr: the kind is listed in the inventory, not parsed
  std::string_view description;  // one sentence: `inventory --kinds` and docs
  std::string_view not_parsed;   // with parse == nullptr: why it is only listed
};

// Work that needs the whole bundle (zones, dedupe, order), run after every entry is parsed.
using FinalizeFn = void (*)(BundleFacts& facts, const AnalyzeOptions& options);

struct ParserFamily {
  std::string_view name;  // the folder under parsers/
  std::span<const KindRow> kinds;
  FinalizeFn finalize = nullptr;  // nullptr: nothing to finish
};

}  // namespace triage
