#include "knowledge/line_shapes.h"

#include <re2/re2.h>

#include <map>
#include <set>

#include "knowledge/knowledge.h"
#include "knowledge/month_names.h"
#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"
#include "knowledge/table_text.h"
#include "model/source_kind.h"

namespace triage {

namespace {

std::string with_months(std::string pattern) {
  const MonthNames& months = builtin_month_names();
  const std::pair<std::string_view, std::string> marks[] = {{"@MONTH@", months.pattern(false)},
                                                            {"@LOCAL_MONTH@", months.pattern(true)}};
  for (const auto& [mark, alternation] : marks)
    for (size_t at = pattern.find(mark); at != std::string::npos; at = pattern.find(mark, at)) {
      pattern.replace(at, mark.size(), alternation);
      at += alternation.size();
    }
  return pattern;
}

}  // namespace

std::vector<LineShapeRow> parse_line_shapes(std::string_view content, const std::string& name,
                                            std::vector<std::string>& errors) {
  std::vector<LineShapeRow> rows;
  std::set<std::string, std::less<>> ids;
  for_each_table_row(content, name, {"shape", "kind", "name", "pattern"}, errors,
                     [&](const std::string& where, const std::vector<std::string_view>& f) {
                       if (f[0].empty() || f[3].empty() || f[2].empty())
                         return errors.push_back(where + ": shape, name and pattern must not be empty");
                       if (!parse_source_kind(f[1]))
                         return errors.push_back(where + ": kind '" + std::string(f[1]) + "' is not a source kind");
                       if (!ids.emplace(f[0]).second)
                         return errors.push_back(where + ": shape '" + std::string(f[0]) + "' twice");
                       rows.push_back({std::string(f[0]), std::string(f[1]), std::string(f[2]),
                                       with_months(std::string(f[3]))});
                     });
  return rows;
}

std::vector<LineShapeSample> parse_line_shape_samples(std::string_view content, const std::string& name,
                                                      std::vector<std::string>& errors) {
  std::vector<LineShapeSample> out;
  for_each_table_row(content, name, {"shape", "expect", "line"}, errors,
                     [&](const std::string& where, const std::vector<std::string_view>& f) {
                       if (f[1] != "match" && f[1] != "near_miss")
                         return errors.push_back(where + ": expect must be match or near_miss");
                       if (f[2].empty()) return errors.push_back(where + ": empty line");
                       out.push_back({std::string(f[0]), f[1] == "match", unescape_tabs(f[2]), where});
                     });
  return out;
}

const std::vector<LineShapeRow>& builtin_line_shapes() {
  static const std::vector<LineShapeRow>& rows = cached_table<std::vector<LineShapeRow>>(
      kLineShapesFile, "", [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return parse_line_shapes(c, n, e);
      });
  return rows;
}

std::vector<std::string> check_line_shapes(std::string_view content, const std::string& name,
                                           size_t& samples_checked) {
  std::vector<std::string> problems;
  bool is_samples = name.ends_with(kLineShapeSamplesFile);
  std::string shapes_text = is_samples ? builtin_knowledge_content(kLineShapesFile) : std::string(content);
  std::string samples_text = is_samples ? std::string(content) : builtin_knowledge_content(kLineShapeSamplesFile);
  std::string shapes_name = is_samples ? std::string(kLineShapesFile) : name;
  std::string samples_name = is_samples ? name : std::string(kLineShapeSamplesFile);
  auto rows = parse_line_shapes(shapes_text, shapes_name, problems);
  auto samples = parse_line_shape_samples(samples_text, samples_name, problems);
  samples_checked = samples.size();
  std::map<std::string, std::unique_ptr<RE2>, std::less<>> compiled;
  for (const auto& r : rows) {
    auto re = std::make_unique<RE2>(r.pattern, RE2::Quiet);
    if (!re->ok()) problems.push_back(shapes_name + ": shape " + r.id + ": pattern does not compile: " + re->error());
    compiled.emplace(r.id, std::move(re));
  }
  std::map<std::string, std::pair<int, int>, std::less<>> counts;  // shape -> (matches, near misses)
  for (const auto& s : samples) {
    auto it = compiled.find(s.shape);
    if (it == compiled.end()) {
      problems.push_back(s.where + ": no shape '" + s.shape + "' in " + shapes_name);
      continue;
    }
    auto& [m, n] = counts[s.shape];
    (s.match ? m : n) += 1;
    if (!it->second->ok()) continue;
    bool hit = RE2::PartialMatch(s.line, *it->second);
    if (s.match && !hit) problems.push_back(s.where + ": shape " + s.shape + " does not match its sample");
    if (!s.match && hit) problems.push_back(s.where + ": shape " + s.shape + " matches its near miss");
  }
  for (const auto& r : rows) {
    auto [m, n] = counts[r.id];
    if (m == 0 || n == 0)
      problems.push_back(samples_name + ": shape " + r.id + " needs a match and a near_miss sample (has " +
                         std::to_string(m) + " and " + std::to_string(n) + ")");
  }
  return problems;
}

}  // namespace triage
