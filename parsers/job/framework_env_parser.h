#pragma once
// Environment reports frameworks print, pasted into tickets: vLLM's and torch_npu's
// `collect_env` (`PyTorch version: 2.5.1`, `[pip3] torch-npu==2.5.1.dev20250308`,
// `vLLM Ascend Version: 0.7.3rc2`) and MindSpore's run_check (`MindSpore version: 2.5.0`).
// Each version becomes a package row of the default pip (LibraryFacts::default_pip), which
// the version matrix reads; the CANN block and the npu-smi table of a collect_env are
// segments of their own (ingest/segment.h).
#include "parsers/common/parser.h"

namespace triage {

void parse_framework_env(ParseContext& ctx, ByteSource& src);

}  // namespace triage
