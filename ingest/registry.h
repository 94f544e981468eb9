#pragma once
// Which parser reads which kind: the one table (ingest/registry.cpp) the entry processor
// dispatches through.
#include <span>
#include <string_view>

#include "model/error_lines.h"
#include "model/host_facts.h"
#include "model/source_kind.h"
#include "parsers/common/parser.h"

namespace triage {

// The parser for a kind; nullptr when the kind is recorded in the inventory but not parsed.
ParseFn parser_for(SourceKind kind);

// Each reader family's say on which of its lines are errors (model/error_lines.h), in the
// order unexplained-errors offers them: the first to offer a line keeps it. Rows marked
// before_signatures go before the signature hits (a plog line's error code stays with it);
// the others after. A new family adds its function here and nowhere in the correlator.
struct ErrorLineReader {
  std::string_view family;
  bool before_signatures = false;
  void (*read)(const BundleFacts&, ErrorLineSink&) = nullptr;
};
std::span<const ErrorLineReader> error_line_readers();

}  // namespace triage
