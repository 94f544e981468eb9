#pragma once
// knowledge/same-event.tsv: pairs of findings that are two readings of one evidence event.
// Read by correlator/passes/same_event.
#include <string>
#include <string_view>
#include <vector>

namespace triage {

struct SameEventRule {
  std::string keep;  // finding id kept at equal severity (the more specific reading)
  std::string fold;  // finding id folded into it
  std::string why;
};

constexpr std::string_view kSameEventFile = "same-event.tsv";

// The value key under which a finding kept lists each finding folded into it, one value per
// folded finding: "<id>\t<title>\t<observed>" (the reports show id and title as "Also read as";
// the JSON report writes them as the `also_read_as` array, with `observed` so that no fact of
// the folded reading is lost, not among `values`).
constexpr std::string_view kAlsoReadAsValue = "also_read_as";

// Columns keep, fold, why; problems as "file:line: message".
std::vector<SameEventRule> parse_same_event_rules(std::string_view content, const std::string& name,
                                                  std::vector<std::string>& errors);

// The rules for a --knowledge value ("" = built-in; DIR/same-event.tsv replaces them).
const std::vector<SameEventRule>& same_event_rules_for(const std::string& dir);

}  // namespace triage
