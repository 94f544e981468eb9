#include "knowledge/report_fact_rules.h"

#include <re2/re2.h>

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"

namespace triage {

std::vector<ReportFactRule> parse_report_fact_rules(std::string_view content, const std::string& name,
                                                    std::vector<std::string>& errors) {
  std::vector<ReportFactRule> rules;
  for_each_table_row(content, name, {"key", "pattern", "sample", "value"}, errors,
                     [&](const std::string& where, const std::vector<std::string_view>& f) {
                       if (f[0].empty() || f[1].empty() || f[2].empty() || f[3].empty())
                         return errors.push_back(where + ": key, pattern, sample and value must not be empty");
                       auto re = std::make_shared<const RE2>(std::string(f[1]), RE2::Quiet);
                       if (!re->ok()) return errors.push_back(where + ": pattern does not compile: " + re->error());
                       if (re->NumberOfCapturingGroups() != 1)
                         return errors.push_back(where + ": pattern needs exactly one capture group (the value)");
                       std::string got;
                       if (!RE2::PartialMatch(re2::StringPiece(f[2].data(), f[2].size()), *re, &got))
                         return errors.push_back(where + ": pattern does not match its sample");
                       while (!got.empty() && got.back() == ' ') got.pop_back();
                       if (got != f[3])
                         return errors.push_back(where + ": sample gives '" + got + "', not '" + std::string(f[3]) + "'");
                       rules.push_back({std::string(f[0]), std::move(re), std::string(f[2]), std::string(f[3]), where});
                     });
  return rules;
}

const std::vector<ReportFactRule>& builtin_report_fact_rules() {
  static const std::vector<ReportFactRule>& rules =
      cached_table<std::vector<ReportFactRule>>(kReportFactsFile, "", parse_report_fact_rules);
  return rules;
}

}  // namespace triage
