#include "knowledge/knowledge_schemas.h"

#include <map>
#include <memory>
#include <mutex>

#include "jsonschema/schema.h"
#include "knowledge/knowledge.h"

namespace triage {

namespace {

// Whether the folder holding `name` is `folder` ("schemas/x.json", "/any/path/schemas/x.json").
bool in_folder(std::string_view name, std::string_view folder) {
  size_t slash = name.rfind('/');
  std::string_view dir = name.substr(0, slash == std::string_view::npos ? 0 : slash);
  return dir == folder || (dir.size() > folder.size() && dir.ends_with(folder) &&
                           dir[dir.size() - folder.size() - 1] == '/');
}

// A built-in schema, compiled once; null (with its errors) when it does not compile.
struct Compiled {
  std::unique_ptr<jsonschema::Schema> schema;
  std::vector<std::string> errors;
};

const Compiled& builtin_schema(std::string_view schema_name) {
  static std::mutex mu;
  static std::map<std::string, Compiled, std::less<>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(schema_name);
  if (it != cache.end()) return it->second;
  Compiled c;
  const KnowledgeFile* file = nullptr;
  for (const auto& f : builtin_knowledge_files())
    if (f.name == schema_name) file = &f;
  if (!file) c.errors.push_back(std::string(schema_name) + ": not built in");
  else c.schema = jsonschema::Schema::compile(file->content, c.errors);
  return cache.emplace(std::string(schema_name), std::move(c)).first->second;
}

}  // namespace

bool is_knowledge_schema(std::string_view name) {
  return name.ends_with(".schema.json") && in_folder(name, "schemas");
}

bool is_verdict_rules_file(std::string_view name) {
  return name.ends_with(".json") && in_folder(name, "verdict");
}

std::string_view knowledge_schema_for(std::string_view name) {
  if (!name.ends_with(".json") || is_knowledge_schema(name)) return {};
  if (is_verdict_rules_file(name)) return "schemas/verdict.schema.json";
  return "schemas/signatures.schema.json";
}

void check_knowledge_json_schema(std::string_view content, const std::string& name,
                                 std::vector<std::string>& problems) {
  std::string_view schema_name = knowledge_schema_for(name);
  if (schema_name.empty()) return;
  const Compiled& c = builtin_schema(schema_name);
  for (const auto& e : c.errors) problems.push_back(std::string(schema_name) + ": " + e);
  if (!c.schema) return;
  for (const auto& v : c.schema->validate(content))
    problems.push_back(name + ": " + v.to_string() + " (" + std::string(schema_name) + ")");
}

void check_knowledge_schema_file(std::string_view content, const std::string& name,
                                 std::vector<std::string>& problems) {
  std::vector<std::string> errors;
  jsonschema::Schema::compile(content, errors);
  for (const auto& e : errors) problems.push_back(name + ": " + e);
}

}  // namespace triage
