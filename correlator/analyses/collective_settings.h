#pragma once
// Values the ranks of one job must share, compared between them (docs/findings/collective.md):
// collective/settings-differ (a setting both ends of a link must share) and collective/mismatch
// (ranks of one communicator in different collectives).
#include <vector>

#include "knowledge/collective_classes.h"
#include "knowledge/finding_texts.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

constexpr std::string_view kSettingsDifferClass = "collective/settings-differ";

// A signature whose hits carry this capture states a value to compare, not a failure: the
// collective class of its row (knowledge/collective-classes.tsv) is what two values raise.
// `setting_scope`, when present, limits the comparison to hits with the same scope.
constexpr std::string_view kStatedValueCapture = "setting_value";

// One finding per class when, over the whole input (all its bundles), a setting has two values
// stated by different ranks or devices; hccn_tool -tls -g's switches join HCCP's own TLS line
// (hccp/tls-switch). A rank or device that states two values itself is left out.
// `collective_failed`: another collective class was seen.
void compared_values(const EvidenceSet& evidence, const CollectiveClasses& classes, const FindingTexts& texts,
                     bool collective_failed, std::vector<Finding>& out);

}  // namespace triage
