#include "knowledge/job_text_forms.h"

#include <set>

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"
#include "knowledge/table_text.h"

namespace triage {

namespace {

constexpr struct {
  std::string_view name;
  JobTextRole role;
} kRoles[] = {{"error", kTextError},
              {"below_error", kTextBelowError},
              {"progress", kTextProgress}};

}  // namespace

std::string_view job_text_role_name(JobTextRole r) {
  for (const auto& k : kRoles)
    if (k.role == r) return k.name;
  return "?";
}

namespace {

std::unique_ptr<RE2::Set> compile_set(const std::vector<JobTextForm>& forms, uint8_t roles) {
  RE2::Options o;
  o.set_log_errors(false);
  auto set = std::make_unique<RE2::Set>(o, RE2::UNANCHORED);
  bool any = false;
  for (const auto& f : forms) {
    if (!(f.role & roles)) continue;
    if (set->Add(f.pattern, nullptr) < 0) return nullptr;
    any = true;
  }
  if (!any || !set->Compile()) return nullptr;
  return set;
}

constexpr JobTextRole kSetRoles[3] = {kTextError, kTextBelowError, kTextProgress};

}  // namespace

void JobTextForms::build_set() {
  set_.reset();
  for (auto& r : role_sets_) r.reset();
  if (forms.empty()) return;
  set_ = compile_set(forms, kTextError | kTextBelowError | kTextProgress);
  for (size_t i = 0; i < 3; ++i) role_sets_[i] = compile_set(forms, kSetRoles[i]);
}

uint8_t JobTextForms::roles(std::string_view line) const {
  if (!set_) return 0;
  re2::StringPiece text(line.data(), line.size());
  // One pass for the common case (no form at all), then one per role: Match without a hit
  // list allocates nothing.
  if (!set_->Match(text, nullptr)) return 0;
  uint8_t out = 0;
  for (size_t i = 0; i < 3; ++i)
    if (role_sets_[i] && role_sets_[i]->Match(text, nullptr)) out |= kSetRoles[i];
  return out;
}

const JobTextForm* JobTextForms::first(std::string_view line, JobTextRole role) const {
  re2::StringPiece t(line.data(), line.size());
  for (const auto& f : forms)
    if (f.role == role && RE2::PartialMatch(t, *f.re)) return &f;
  return nullptr;
}

JobTextForms parse_job_text_forms(std::string_view content, const std::string& name,
                                  std::vector<std::string>& errors) {
  JobTextForms out;
  std::set<std::string, std::less<>> ids;
  for_each_table_row(content, name, {"form", "role", "pattern", "sample", "near_miss", "source"}, errors,
                     [&](const std::string& where, const std::vector<std::string_view>& f) {
                       for (std::string_view v : f)
                         if (v.empty()) return errors.push_back(where + ": no field may be empty");
                       if (!ids.emplace(f[0]).second)
                         return errors.push_back(where + ": form '" + std::string(f[0]) + "' twice");
                       JobTextForm form;
                       bool known = false;
                       for (const auto& k : kRoles)
                         if (k.name == f[1]) form.role = k.role, known = true;
                       if (!known)
                         return errors.push_back(where + ": role must be error, below_error or progress");
                       form.id = std::string(f[0]);
                       form.pattern = std::string(f[2]);
                       form.sample = unescape_tabs(f[3]);
                       form.near_miss = unescape_tabs(f[4]);
                       form.source = std::string(f[5]);
                       form.re = std::make_unique<RE2>(form.pattern, RE2::Quiet);
                       if (!form.re->ok())
                         return errors.push_back(where + ": pattern does not compile: " + form.re->error());
                       out.forms.push_back(std::move(form));
                     });
  out.build_set();
  return out;
}

const JobTextForms& job_text_forms_for(const std::string& dir) {
  return cached_table<JobTextForms>(
      kJobTextFormsFile, dir, [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return parse_job_text_forms(c, n, e);
      });
}

std::vector<std::string> check_job_text_forms(std::string_view content, const std::string& name,
                                              size_t& samples_checked) {
  std::vector<std::string> problems;
  JobTextForms t = parse_job_text_forms(content, name, problems);
  samples_checked = 0;
  for (const auto& f : t.forms) {
    samples_checked += 2;
    std::string head = name + ": " + f.id + ": ";
    if (!RE2::PartialMatch(f.sample, *f.re)) problems.push_back(head + "its sample does not match its pattern");
    if (RE2::PartialMatch(f.near_miss, *f.re)) problems.push_back(head + "its near miss matches its pattern");
    // As the readers use the table: an error sample must read as an error line, whatever the
    // other roles say of it.
    uint8_t r = t.roles(f.sample);
    if (f.role == kTextError && (r & kTextError) && !JobTextForms::is_error(r))
      problems.push_back(head + "its sample is vetoed by a below_error form");
    if (f.role == kTextBelowError && JobTextForms::is_error(r))
      problems.push_back(head + "its sample still reads as an error line");
  }
  return problems;
}

}  // namespace triage
