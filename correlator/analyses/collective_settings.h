#pragma once
// collective/settings-differ: a setting both ends of a link must share that two devices or
// ranks state differently (docs/findings/collective.md).
#include <vector>

#include "knowledge/collective_classes.h"
#include "knowledge/finding_texts.h"
#include "model/finding.h"
#include "model/host_facts.h"

namespace triage {

// The collective class of the signatures that state such a setting.
constexpr std::string_view kSettingsDifferClass = "collective/settings-differ";

// One finding when some setting has two values in the input (all its bundles): the signature hits whose class
// (knowledge/collective-classes.tsv) is settings-differ, by their `setting_value` capture and
// compared only among hits with the same `setting_scope`; hccn_tool -tls -g's switches join
// HCCP's own TLS line (hccp/tls-switch). `collective_failed`: another collective class was seen.
void settings_differ(const EvidenceSet& evidence, const CollectiveClasses& classes, const FindingTexts& texts,
                     bool collective_failed, std::vector<Finding>& out);

}  // namespace triage
