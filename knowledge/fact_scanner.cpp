#include "knowledge/fact_scanner.h"

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"

namespace triage {

FactScanner::FactScanner(std::vector<FactForm> forms) : forms_(std::move(forms)) {
  if (forms_.empty()) return;
  RE2::Options o;
  o.set_log_errors(false);
  set_ = std::make_unique<RE2::Set>(o, RE2::UNANCHORED);
  for (const auto& f : forms_)
    if (set_->Add(f.pattern->pattern(), nullptr) < 0) {
      set_.reset();
      return;
    }
  if (!set_->Compile()) set_.reset();
}

bool FactScanner::any(std::string_view line) const {
  if (!set_ || line.empty()) return false;
  return set_->Match(re2::StringPiece(line.data(), line.size()), nullptr);
}

std::vector<FactForm> parse_fact_forms(std::string_view content, const std::string& name,
                                       std::vector<std::string>& errors) {
  std::vector<FactForm> forms;
  for_each_table_row(
      content, name, {"key", "pattern", "sample", "value", "near_miss", "source"}, errors,
      [&](const std::string& where, const std::vector<std::string_view>& f) {
        for (const auto& x : f)
          if (x.empty()) return errors.push_back(where + ": no column may be empty");
        auto re = std::make_shared<const RE2>(std::string(f[1]), RE2::Quiet);
        if (!re->ok()) return errors.push_back(where + ": pattern does not compile: " + re->error());
        if (re->NumberOfCapturingGroups() != 1)
          return errors.push_back(where + ": pattern needs exactly one capture group (the value)");
        std::string got;
        if (!RE2::PartialMatch(re2::StringPiece(f[2].data(), f[2].size()), *re, &got))
          return errors.push_back(where + ": pattern does not match its sample");
        while (!got.empty() && (got.back() == ' ' || got.back() == '\t')) got.pop_back();
        if (got != f[3])
          return errors.push_back(where + ": sample gives '" + got + "', not '" + std::string(f[3]) + "'");
        if (RE2::PartialMatch(re2::StringPiece(f[4].data(), f[4].size()), *re))
          return errors.push_back(where + ": pattern matches its near miss");
        forms.push_back({std::string(f[0]), std::move(re), std::string(f[2]), std::string(f[3]),
                         std::string(f[4]), std::string(f[5]), where});
      });
  return forms;
}

const FactScanner& builtin_fact_scanner() {
  static const FactScanner& scanner = cached_table<FactScanner>(
      kFactFormsFile, "", [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return FactScanner(parse_fact_forms(c, n, e));
      });
  return scanner;
}

}  // namespace triage
