#include "correlator/summaries/report_facts.h"

#include <re2/re2.h>

#include "knowledge/report_fact_rules.h"

namespace triage {
namespace {

bool has(const ReportFacts& out, std::string_view key) {
  for (const auto& [k, v] : out)
    if (k == key) return true;
  return false;
}

}  // namespace

// The rules of knowledge/report-facts.tsv in file order; first match per key wins.
void add_report_facts(std::string_view text, ReportFacts& out) {
  re2::StringPiece in(text.data(), text.size());
  for (const auto& rule : builtin_report_fact_rules()) {
    if (has(out, rule.key)) continue;
    std::string value;
    if (!RE2::PartialMatch(in, *rule.pattern, &value)) continue;
    while (!value.empty() && value.back() == ' ') value.pop_back();
    if (!value.empty()) out.emplace_back(rule.key, std::move(value));
  }
}

std::string report_facts_text(const ReportFacts& facts) {
  std::string s;
  for (const auto& [k, v] : facts) s += (s.empty() ? "" : ", ") + k + "=" + v;
  return s;
}

}  // namespace triage
