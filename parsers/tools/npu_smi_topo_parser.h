#pragma once
// `npu-smi info -t topo`: a matrix of link types between NPUs (X, HCCS, PIX, PXB, SYS, ...)
// with each NPU's CPU affinity, then a legend. Becomes DeviceFacts::topologies.
#include "parsers/common/parser.h"

namespace triage {

void parse_npu_smi_topo(ParseContext& ctx, ByteSource& src);

}  // namespace triage
