#include "knowledge/failure_classes.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "knowledge/knowledge.h"
#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"

namespace triage {

FailureClasses parse_failure_classes(std::string_view content, const std::string& name,
                                     std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"match", "text", "class", "meaning", "source"};
  static const std::set<std::string_view> kMatches = {"code", "phrase", "signature", "library"};
  static const std::set<std::string_view> kClasses = {"operator", "operator-fault", "device-fault",
                                                      "device-memory", "library-load", "job-code",
                                                      "install-mismatch", "import-path", "stack-library"};
  FailureClasses out;
  std::set<std::pair<std::string, std::string>> seen;
  for_each_table_row(content, name, kHeader, errors, [&](const std::string& where, const auto& f) {
    FailureClassInfo c{std::string(f[0]), std::string(f[1]), std::string(f[2]), std::string(f[3]),
                       std::string(f[4])};
    if (!kMatches.count(c.match))
      return errors.push_back(where + ": match '" + c.match + "' is not code, phrase, signature or library");
    if (!kClasses.count(c.klass)) return errors.push_back(where + ": unknown class '" + c.klass + "'");
    if ((c.match == "library") != (c.klass == "stack-library"))
      return errors.push_back(where + ": a library row has class stack-library, and only a library row");
    if (c.text.empty() || c.meaning.empty() || c.source.empty())
      return errors.push_back(where + ": text, meaning and source are required");
    if (!seen.insert({c.match, c.text}).second)
      return errors.push_back(where + ": duplicate " + c.match + " " + c.text);
    out.rows.push_back(std::move(c));
  });
  return out;
}

const FailureClassInfo* FailureClasses::of_code(std::string_view code) const {
  if (code.empty()) return nullptr;
  for (const auto& c : rows)
    if (c.match == "code" && c.text == code) return &c;
  return nullptr;
}

const FailureClassInfo* FailureClasses::of_text(std::string_view text) const {
  for (const auto& c : rows)
    if (c.match == "phrase" && text.find(c.text) != std::string_view::npos) return &c;
  return nullptr;
}

const FailureClassInfo* FailureClasses::of_signature(std::string_view id) const {
  for (const auto& c : rows)
    if (c.match == "signature" && c.text == id) return &c;
  return nullptr;
}

const FailureClasses& failure_classes_for(const std::string& dir) {
  return cached_table<FailureClasses>(
      kFailureClassFile, dir, [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return parse_failure_classes(c, n, e);
      });
}

}  // namespace triage
