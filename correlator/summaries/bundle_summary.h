#pragma once
// The summary of one bundle before any finding (model/bundle_summary.h), from facts only.
#include "model/bundle_summary.h"
#include "model/host_facts.h"

namespace triage {

BundleSummary summarize_bundle(const BundleFacts& facts);

}  // namespace triage
