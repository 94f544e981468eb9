#pragma once
// The source kinds the job family reads: one row each (parsers/common/kind_row.h).
// ingest/registry.cpp joins every family's rows; a new kind of this family is one row here.
#include "parsers/common/kind_row.h"
#include "parsers/job/framework_env_parser.h"
#include "parsers/job/python_parser.h"

namespace triage {

inline constexpr KindRow kJobKinds[] = {
    {SourceKind::python_log, parse_python_log, "job output / stderr with Python tracebacks", {}},
    {SourceKind::framework_env, parse_framework_env, "an environment report a framework prints (vLLM/torch_npu collect_env, MindSpore run_check): package versions", {}},
};

inline constexpr ParserFamily kJobFamily{"job", kJobKinds, finalize_python_facts};

}  // namespace triage
