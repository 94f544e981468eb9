#pragma once
// The processes of a chain: pids differ between runs, so each process gets a match key, its
// rank ("rank 3", from the first rank variable of knowledge/chain-selection.tsv it sets), else
// its program and script ("python3 train.py"); equal keys are numbered in pid order ("... #2").
// The full command line is an item of its own. docs/diff.md.
#include <vector>

#include "knowledge/chain_selection.h"
#include "model/chain.h"
#include "model/host_facts.h"

namespace triage {

std::vector<ChainProcess> build_chain_processes(const BundleFacts& bundle, const ChainSelection& selection);

// One sentence on how the processes of two chains were paired, for the diff's header.
inline constexpr std::string_view kProcessMatching =
    "processes are paired by rank (RANK, RANK_ID or LOCAL_RANK in their environment), else by "
    "program and script (python3 train.py), never by pid; equal keys are numbered in pid order";

}  // namespace triage
