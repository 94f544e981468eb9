#pragma once
// Work that needs the whole bundle read first: entries arrive in any order, so a plog read
// before its process's tz.txt keeps local times until here.
#include "model/host_facts.h"
#include "model/options.h"

namespace triage {

void finalize_facts(BundleFacts& facts, const AnalyzeOptions& options);

}  // namespace triage
