#include "knowledge/error_levels.h"

#include <array>
#include <map>
#include <set>

#include "knowledge/knowledge.h"
#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"
#include "knowledge/table_text.h"

namespace triage {

namespace {

constexpr std::string_view kGroups[] = {"level", "msg", "time", "pid", "module", "where"};
constexpr int kMaxGroups = 16;  // capturing groups a pattern may have (named or not)

std::string_view group(const std::array<re2::StringPiece, kMaxGroups + 1>& g, int index) {
  if (index <= 0 || g[static_cast<size_t>(index)].data() == nullptr) return {};
  return {g[static_cast<size_t>(index)].data(), g[static_cast<size_t>(index)].size()};
}

struct Sample {
  std::string form;
  bool match = true;
  std::string line, where;
};

std::vector<Sample> parse_samples(std::string_view content, const std::string& name,
                                  std::vector<std::string>& errors) {
  std::vector<Sample> out;
  for_each_table_row(content, name, {"form", "expect", "line"}, errors,
                     [&](const std::string& where, const std::vector<std::string_view>& f) {
                       if (f[1] != "match" && f[1] != "near_miss")
                         return errors.push_back(where + ": expect must be match or near_miss");
                       if (f[2].empty()) return errors.push_back(where + ": empty line");
                       out.push_back({std::string(f[0]), f[1] == "match", unescape_tabs(f[2]), where});
                     });
  return out;
}

}  // namespace

void ErrorLevels::build_set() {
  set_.reset();
  if (forms.empty()) return;
  RE2::Options o;
  o.set_log_errors(false);
  auto set = std::make_unique<RE2::Set>(o, RE2::UNANCHORED);
  for (const auto& f : forms)
    if (set->Add(f.pattern, nullptr) < 0) return;
  if (set->Compile()) set_ = std::move(set);
}

bool ErrorLevels::any(std::string_view text) const {
  return set_ && set_->Match(re2::StringPiece(text.data(), text.size()), nullptr);
}

int ErrorLevels::first(std::string_view text) const {
  if (!any(text)) return -1;
  re2::StringPiece t(text.data(), text.size());
  for (size_t i = 0; i < forms.size(); ++i)
    if (forms[i].re->Match(t, 0, t.size(), RE2::ANCHOR_START, nullptr, 0)) return static_cast<int>(i);
  return -1;
}

bool ErrorLevels::groups(std::string_view text, int index, ErrorLevelMatch& out) const {
  if (index < 0 || static_cast<size_t>(index) >= forms.size()) return false;
  const ErrorLevelForm& f = forms[static_cast<size_t>(index)];
  std::array<re2::StringPiece, kMaxGroups + 1> g{};
  int n = f.re->NumberOfCapturingGroups();
  if (!f.re->Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::ANCHOR_START, g.data(), n + 1))
    return false;
  out = {};
  out.form = &f;
  out.level = group(g, f.level);
  out.message = group(g, f.msg);
  out.time = group(g, f.time);
  out.pid = group(g, f.pid);
  out.module = group(g, f.module);
  out.where = group(g, f.where);
  return true;
}

bool ErrorLevels::match(std::string_view text, ErrorLevelMatch& out) const {
  return groups(text, first(text), out);
}

ErrorLevels parse_error_levels(std::string_view content, const std::string& name,
                               std::vector<std::string>& errors) {
  ErrorLevels out;
  std::set<std::string, std::less<>> ids;
  for_each_table_row(content, name, {"form", "name", "pattern", "source"}, errors,
                     [&](const std::string& where, const std::vector<std::string_view>& f) {
                       for (std::string_view v : f)
                         if (v.empty()) return errors.push_back(where + ": form, name, pattern and source must not be empty");
                       if (!ids.emplace(f[0]).second)
                         return errors.push_back(where + ": form '" + std::string(f[0]) + "' twice");
                       if (f[2].front() != '^')
                         return errors.push_back(where + ": the pattern must start with ^ (a level is read where the line starts)");
                       ErrorLevelForm form;
                       form.id = std::string(f[0]);
                       form.name = std::string(f[1]);
                       form.pattern = std::string(f[2]);
                       form.re = std::make_unique<RE2>(form.pattern, RE2::Quiet);
                       if (!form.re->ok())
                         return errors.push_back(where + ": pattern does not compile: " + form.re->error());
                       if (form.re->NumberOfCapturingGroups() > kMaxGroups)
                         return errors.push_back(where + ": more than " + std::to_string(kMaxGroups) + " capturing groups");
                       for (const auto& [group_name, index] : form.re->NamedCapturingGroups()) {
                         int* slot = group_name == "level"    ? &form.level
                                     : group_name == "msg"    ? &form.msg
                                     : group_name == "time"   ? &form.time
                                     : group_name == "pid"    ? &form.pid
                                     : group_name == "module" ? &form.module
                                     : group_name == "where"  ? &form.where
                                                              : nullptr;
                         if (!slot)
                           return errors.push_back(where + ": unknown group '" + group_name +
                                                   "' (level, msg, time, pid, module, where)");
                         *slot = index;
                       }
                       if (!form.level || !form.msg)
                         return errors.push_back(where + ": the pattern needs the groups (?P<level>...) and (?P<msg>...)");
                       out.forms.push_back(std::move(form));
                     });
  out.build_set();
  return out;
}

const ErrorLevels& error_levels_for(const std::string& dir) {
  return cached_table<ErrorLevels>(
      kErrorLevelsFile, dir, [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return parse_error_levels(c, n, e);
      });
}

std::vector<std::string> check_error_levels(std::string_view content, const std::string& name,
                                            size_t& samples_checked) {
  std::vector<std::string> problems;
  bool is_samples = name.ends_with(kErrorLevelSamplesFile);
  std::string forms_text = is_samples ? builtin_knowledge_content(kErrorLevelsFile) : std::string(content);
  std::string samples_text = is_samples ? std::string(content) : builtin_knowledge_content(kErrorLevelSamplesFile);
  std::string forms_name = is_samples ? std::string(kErrorLevelsFile) : name;
  std::string samples_name = is_samples ? name : std::string(kErrorLevelSamplesFile);
  ErrorLevels levels = parse_error_levels(forms_text, forms_name, problems);
  auto samples = parse_samples(samples_text, samples_name, problems);
  samples_checked = samples.size();
  std::map<std::string, std::pair<int, int>, std::less<>> counts;  // form -> (matches, near misses)
  std::set<std::string, std::less<>> known;
  for (const auto& f : levels.forms) known.insert(f.id);
  for (const auto& s : samples) {
    if (!known.count(s.form)) {
      problems.push_back(s.where + ": no form '" + s.form + "' in " + forms_name);
      continue;
    }
    auto& [m, n] = counts[s.form];
    (s.match ? m : n) += 1;
    ErrorLevelMatch hit;
    bool matched = levels.match(s.line, hit);
    // A match must be named by its own form (the first that matches) and carry a message; a
    // near miss must match no form at all: the table is used as a whole.
    if (s.match && !matched)
      problems.push_back(s.where + ": no form matches this sample of " + s.form);
    else if (s.match && hit.form->id != s.form)
      problems.push_back(s.where + ": form " + hit.form->id + " matches this sample of " + s.form + " first");
    else if (s.match && hit.message.find_first_not_of(" \t") == std::string_view::npos)
      problems.push_back(s.where + ": the sample of " + s.form + " has an empty message");
    else if (!s.match && matched)
      problems.push_back(s.where + ": form " + hit.form->id + " matches this near miss of " + s.form);
  }
  for (const auto& f : levels.forms) {
    auto [m, n] = counts[f.id];
    if (m == 0 || n == 0)
      problems.push_back(samples_name + ": form " + f.id + " needs a match and a near_miss sample (has " +
                         std::to_string(m) + " and " + std::to_string(n) + ")");
  }
  return problems;
}

}  // namespace triage
