#pragma once
// The parsed table of one knowledge file for a --knowledge value ("" = built-in; DIR/<file>
// replaces the built-in file), parsed once per value and kept for the process. `parse` is
// called as parse(content, file name, errors); the file's errors go to `errors` the first
// time it is loaded.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "knowledge/knowledge.h"

namespace triage {

template <class T, class Parse>
const T& cached_table(std::string_view file, const std::string& dir, Parse parse,
                      std::vector<std::string>& errors) {
  static std::mutex mu;  // one cache per instantiation, that is per table kind
  static std::map<std::string, std::unique_ptr<T>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(dir);
  if (it != cache.end()) return *it->second;
  require_compile_headroom();  // tables compile regexes: knowledge/lazy_regex.h
  std::string content;
  for (const auto& f : builtin_knowledge_files())
    if (f.name == file) content = f.content;
  if (!dir.empty())
    for (const auto& f : read_knowledge_dir(dir, errors))
      if (f.name == file) content = f.content;
  auto table = std::make_unique<T>(parse(content, std::string(file), errors));
  const T& ref = *table;
  cache.emplace(dir, std::move(table));
  return ref;
}

// The same without the errors: an override's are the loader's to report (`knowledge check`).
template <class T, class Parse>
const T& cached_table(std::string_view file, const std::string& dir, Parse parse) {
  std::vector<std::string> errors;
  return cached_table<T>(file, dir, parse, errors);
}

}  // namespace triage
