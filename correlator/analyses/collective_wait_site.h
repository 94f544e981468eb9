#pragma once
// Where a collective timeout surfaced in the job's Python code. A timeout raised inside
// torch.distributed's barrier says only that some rank arrived late: a barrier moves no data,
// and the late rank is most often busy with its own work (dataset pre-processing under
// transformers' main_process_first) for longer than HCCL_EXEC_TIMEOUT. One rank's paste cannot
// tell that from a peer's fault or the network, so the verdict weighs it less
// (knowledge/verdict/hypotheses.json, value `observed_in_barrier`).
#include <optional>

#include "model/evidence.h"
#include "model/host_facts.h"

namespace triage {

// The `File ".../torch/distributed/...", in barrier` frame of a traceback whose exception
// carries an NPU error (a code, an error report or a torch_npu error), if any.
std::optional<EvidenceRef> collective_wait_in_barrier(const BundleFacts& b);

}  // namespace triage
