#pragma once
// Which parser reads which kind: the families' kind rows (parsers/*/kinds.h), joined in
// ingest/registry.cpp, which the entry processor dispatches through.
#include <span>
#include <string_view>

#include "model/error_lines.h"
#include "model/host_facts.h"
#include "model/source_kind.h"
#include "parsers/common/kind_row.h"

namespace triage {

// The parser for a kind; nullptr when the kind is recorded in the inventory but not parsed.
ParseFn parser_for(SourceKind kind);
// One sentence saying what the kind is, for `inventory --kinds` and docs.
std::string_view describe_kind(SourceKind kind);
// Why a kind without a parser is only listed ("" for a parsed kind).
std::string_view not_parsed_reason(SourceKind kind);
// Every parser family with its kinds and finishing step, in the order the steps run.
std::span<const ParserFamily> parser_families();

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
