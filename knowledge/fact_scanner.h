#pragma once
// knowledge/fact-forms.tsv (issue 36, "facts anywhere"): one scanner for the values a line
// names wherever it is printed: error codes, errorStr texts, device/chip/core ids, pids,
// ranks, peer endpoints, versions next to a product name. Every pattern is in one RE2::Set
// asked yes or no first (Match without a hit list allocates nothing); the values of a line
// the set says yes to are read with each form's own RE2 into string views of the line.
// Format: docs/knowledge.md ("Fact forms").
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <re2/re2.h>
#include <re2/set.h>

namespace triage {

constexpr std::string_view kFactFormsFile = "fact-forms.tsv";

struct FactForm {
  std::string key;                          // "code", "pid", "device", ...
  std::shared_ptr<const re2::RE2> pattern;  // one capture: the value
  std::string sample, value, near_miss, source;
  std::string where;                        // "fact-forms.tsv:12"
};

class FactScanner {
 public:
  static constexpr size_t kMaxPerForm = 4;  // values read per form and line

  explicit FactScanner(std::vector<FactForm> forms);
  const std::vector<FactForm>& forms() const { return forms_; }

  // Whether any form may match: one pass of the set, no allocation.
  bool any(std::string_view line) const;

  // Calls f(key, value) for each value of each form, forms in file order, values in line
  // order (at most kMaxPerForm per form), trailing blanks cut; nothing when the set says no.
  // The views point into `line`; nothing is allocated.
  template <class F>
  void each(std::string_view line, F&& f) const {
    if (!any(line)) return;
    for (const FactForm& form : forms_) {
      re2::StringPiece in(line.data(), line.size()), got;
      for (size_t n = 0; n < kMaxPerForm && RE2::FindAndConsume(&in, *form.pattern, &got); ++n) {
        std::string_view v(got.data(), got.size());
        while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
        if (!v.empty()) f(std::string_view(form.key), v);
        if (got.empty() && in.empty()) break;
      }
    }
  }

 private:
  std::vector<FactForm> forms_;
  std::unique_ptr<RE2::Set> set_;
};

// Rows in file order. Problems as "file:line: message": a pattern that does not compile or
// has not exactly one group, a sample it does not match or that gives another value, a near
// miss it matches.
std::vector<FactForm> parse_fact_forms(std::string_view content, const std::string& name,
                                       std::vector<std::string>& errors);

// The built-in forms, compiled once.
const FactScanner& builtin_fact_scanner();

}  // namespace triage
