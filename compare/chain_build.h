#pragma once
// The execution chain of one bundle (model/chain.h), read from its facts: no log line is read
// again. Deterministic order: modules by kernel and name, processes by their match key.
#include "knowledge/chain_selection.h"
#include "model/chain.h"
#include "model/host_facts.h"

namespace triage {

Chain build_chain(const BundleFacts& bundle, const ChainSelection& selection);

}  // namespace triage
