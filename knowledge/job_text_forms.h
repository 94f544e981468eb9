#pragma once
// knowledge/job-text-forms.tsv: forms of job-output text that no line grammar of its own
// reads (issue 36), by role: an error-level line of any shape (the error word or code
// anywhere), a line whose own level is below error, a healthy run's progress line of a stack
// customers run (training steps, inference-server lifecycle). Each row carries a sample it
// must match and a near miss it must not. Format: docs/knowledge.md ("Job text forms").
#include <re2/re2.h>
#include <re2/set.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace triage {

constexpr std::string_view kJobTextFormsFile = "job-text-forms.tsv";

enum JobTextRole : uint8_t {
  kTextError = 1,       // an error word or code anywhere
  kTextBelowError = 2,  // the line's own level is below error: it raises nothing
  kTextProgress = 4,    // a healthy run's progress or lifecycle line
};
std::string_view job_text_role_name(JobTextRole r);

struct JobTextForm {
  std::string id, pattern, sample, near_miss, source;
  JobTextRole role = kTextError;
  std::unique_ptr<RE2> re;
};

class JobTextForms {
 public:
  std::vector<JobTextForm> forms;  // file order
  // The roles `line` has (JobTextRole bits, 0: none). Allocates nothing: RE2::Set::Match
  // allocates its match list whenever it is asked which members matched, so each role has a
  // set of its own, asked only whether any matched.
  uint8_t roles(std::string_view line) const;
  // An error-level line: an error form matches, and no below_error form does.
  static bool is_error(uint8_t roles) { return (roles & kTextError) && !(roles & kTextBelowError); }
  // The first form of `role` that matches `line` (for a reason or a test); nullptr: none.
  const JobTextForm* first(std::string_view line, JobTextRole role) const;
  void build_set();

 private:
  std::unique_ptr<RE2::Set> set_;              // every form: most lines match none
  std::unique_ptr<RE2::Set> role_sets_[3];     // kTextError, kTextBelowError, kTextProgress
};

// Rows in file order; problems as "file:line: message" (empty field, unknown role, duplicate
// id, a pattern that does not compile).
JobTextForms parse_job_text_forms(std::string_view content, const std::string& name,
                                  std::vector<std::string>& errors);

// The table for a --knowledge value ("" = built-in; DIR/job-text-forms.tsv replaces it).
const JobTextForms& job_text_forms_for(const std::string& dir);

// What `knowledge check` says of the file: every row's sample must have its role (by that
// row's own pattern and by the table as a whole) and its near miss must not match its pattern.
std::vector<std::string> check_job_text_forms(std::string_view content, const std::string& name,
                                              size_t& samples_checked);

}  // namespace triage
