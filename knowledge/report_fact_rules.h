#pragma once
// knowledge/report-facts.tsv: the values an error report's text names (device, chip, stream
// and task ids, timeouts, operator and kernel names, errorStr), one RE2 pattern each with a
// sample line and the value it must give. correlator/summaries/report_facts.cpp applies
// them. Format: docs/knowledge.md ("Report facts").
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace triage {

constexpr std::string_view kReportFactsFile = "report-facts.tsv";

struct ReportFactRule {
  std::string key;                         // "stream_id"; rows may share one
  std::shared_ptr<const re2::RE2> pattern;  // one capture: the value
  std::string sample, value;               // a line it must match and what it must give
  std::string where;                       // "report-facts.tsv:12"
};

// Rows in file order (the first row of a key that matches gives its value). Problems as
// "file:line: message": a pattern that does not compile or has not exactly one group, a
// sample it does not match or that gives another value.
std::vector<ReportFactRule> parse_report_fact_rules(std::string_view content, const std::string& name,
                                                    std::vector<std::string>& errors);

// The built-in rules (the unexplained-errors pass has no --knowledge value for them).
const std::vector<ReportFactRule>& builtin_report_fact_rules();

}  // namespace triage
