#include "knowledge/finding_texts.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "knowledge/knowledge.h"
#include "knowledge/table_lines.h"
#include "model/severity.h"

namespace triage {

namespace {

bool is_word_char(char c) { return (c >= 'a' && c <= 'z') || c == '_'; }

std::string fill(std::string_view text, const FindingWords& words) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') {
      size_t end = i + 1;
      while (end < text.size() && is_word_char(text[end])) ++end;
      if (end > i + 1 && end < text.size() && text[end] == '}') {
        std::string_view name = text.substr(i + 1, end - i - 1);
        auto it = std::find_if(words.begin(), words.end(), [&](const auto& w) { return w.first == name; });
        if (it != words.end()) {
          out += it->second;
          i = end;
          continue;
        }
      }
    }
    out += text[i];
  }
  return out;
}

bool is_finding_texts_file(std::string_view name) {
  return name.starts_with(kFindingTextsFolder) && name.ends_with(".tsv");
}

}  // namespace

bool is_severity_range(std::string_view s) {
  size_t dots = s.find("..");
  if (dots == std::string_view::npos) return parse_severity(s).has_value();
  auto lo = parse_severity(s.substr(0, dots)), hi = parse_severity(s.substr(dots + 2));
  return lo && hi && *lo < *hi;
}

const FindingText* FindingTexts::find(std::string_view id) const {
  for (const auto& e : entries)
    if (e.id == id) return &e;
  return nullptr;
}

void parse_finding_texts(std::string_view content, const std::string& name, std::vector<FindingText>& out,
                         std::vector<std::string>& errors) {
  std::map<std::string, size_t, std::less<>> index;  // id -> position in `mine`
  std::vector<FindingText> mine;
  for_each_table_row(content, name, {"id", "field", "text"}, errors,
                     [&](const std::string& where, const std::vector<std::string_view>& f) {
                       if (f[0].empty() || f[2].empty()) return errors.push_back(where + ": id and text are required");
                       auto [it, added] = index.try_emplace(std::string(f[0]), mine.size());
                       if (added) mine.push_back(FindingText{.id = std::string(f[0]), .where = where});
                       FindingText& e = mine[it->second];
                       std::string text(f[2]);
                       auto set = [&](std::string& field) {
                         if (!field.empty()) return errors.push_back(where + ": " + std::string(f[1]) + " of " + e.id + " twice");
                         field = std::move(text);
                       };
                       if (f[1] == "severity") set(e.severity);
                       else if (f[1] == "meaning") set(e.meaning);
                       else if (f[1] == "title") set(e.title);
                       else if (f[1] == "supports") set(e.supports);
                       else if (f[1] == "does_not_prove") set(e.does_not_prove);
                       else if (f[1] == "how_to_settle") set(e.how_to_settle);
                       else if (f[1] == "next_check") e.next_checks.push_back(std::move(text));
                       else errors.push_back(where + ": unknown field '" + std::string(f[1]) + "'");
                     });
  for (const auto& e : mine) {
    if (e.variant()) {
      if (!index.count(e.id.substr(0, e.id.find('#'))))
        errors.push_back(e.where + ": variant " + e.id + " of a finding this file does not hold");
      continue;
    }
    if (e.severity.empty() || e.meaning.empty() || e.title.empty() || e.how_to_settle.empty())
      errors.push_back(e.where + ": " + e.id + " needs severity, meaning, title and how_to_settle");
    if (!is_severity_range(e.severity))
      errors.push_back(e.where + ": " + e.id + ": severity must be a severity or a range such as info..error");
    if (e.severity != "info" && e.does_not_prove.empty())
      errors.push_back(e.where + ": " + e.id + ": does_not_prove is required above info");
  }
  for (auto& e : mine) out.push_back(std::move(e));
}

const FindingTexts& finding_texts_for(const std::string& dir) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<FindingTexts>> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache.find(dir); it != cache.end()) return *it->second;
  std::map<std::string, std::string> files;  // by name: an override replaces the built-in file
  for (const auto& f : builtin_knowledge_files())
    if (is_finding_texts_file(f.name)) files[f.name] = f.content;
  std::vector<std::string> errors;  // reported by build_knowledge and `knowledge check`
  if (!dir.empty())
    for (const auto& f : read_knowledge_dir(dir, errors))
      if (is_finding_texts_file(f.name)) files[f.name] = f.content;
  std::map<std::string, std::string> builtin;
  for (const auto& f : builtin_knowledge_files())
    if (is_finding_texts_file(f.name)) builtin[f.name] = f.content;
  auto texts = std::make_unique<FindingTexts>();
  for (const auto& [name, content] : files) {
    std::vector<FindingText> parsed;
    std::vector<std::string> problems;
    parse_finding_texts(content, name, parsed, problems);
    // A broken override must not leave findings without words: its file's built-in entries
    // stand instead (build_knowledge reports the problems with the other knowledge errors).
    if (!problems.empty() && builtin.count(name) && builtin[name] != content) {
      parsed.clear();
      parse_finding_texts(builtin[name], name, parsed, problems);
    }
    for (auto& e : parsed) texts->entries.push_back(std::move(e));
  }
  return *cache.emplace(dir, std::move(texts)).first->second;
}

bool render_finding_words(Finding& f, const FindingTexts& texts, const FindingWords& words,
                          std::string_view variant) {
  const FindingText* base = texts.find(f.id);
  if (!base) return false;
  const FindingText* var = variant.empty() ? nullptr : texts.find(f.id + "#" + std::string(variant));
  auto pick = [&](std::string FindingText::*field) -> const std::string& {
    return var && !(var->*field).empty() ? var->*field : base->*field;
  };
  f.title = fill(pick(&FindingText::title), words);
  f.supports = fill(pick(&FindingText::supports), words);
  f.does_not_prove = fill(pick(&FindingText::does_not_prove), words);
  const auto& checks = var && !var->next_checks.empty() ? var->next_checks : base->next_checks;
  f.next_checks.clear();
  for (const auto& c : checks) f.next_checks.push_back(fill(c, words));
  return true;
}

}  // namespace triage
