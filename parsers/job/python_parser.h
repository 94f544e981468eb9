#pragma once
// Python job output / stderr (SourceKind::python_log): tracebacks, torch_npu errors, ERR lines,
// CANN error-report blocks and c10 warnings into BundleFacts::python. See docs/python-logs.md.
#include "bundle/byte_source.h"
#include "parsers/common/parser.h"

namespace triage {

void parse_python_log(ParseContext& ctx, ByteSource& src);

// Converts the local times kept by parse_python_log (ERR lines, error-report headers,
// traceback anchors, c10 warnings) once every process's zone is known.
void finalize_python_facts(BundleFacts& facts, const AnalyzeOptions& options);

}  // namespace triage
