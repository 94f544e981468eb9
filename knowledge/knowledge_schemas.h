#pragma once
// The schemas of the JSON knowledge files (knowledge/schemas/<kind>.schema.json, built in
// like the other knowledge files): `knowledge check` validates each JSON file against the
// schema of its kind, so a dropped field, an unknown field or a wrong type is named by its
// JSON path. The schemas are the loaders' contract: --knowledge DIR cannot replace them.
#include <string>
#include <string_view>
#include <vector>

namespace triage {

// Whether `name` is a schema file ("schemas/x.schema.json", or a path through schemas/).
bool is_knowledge_schema(std::string_view name);

// Whether `name` is a verdict rules file ("verdict/x.json", or a path through verdict/).
bool is_verdict_rules_file(std::string_view name);

// The built-in schema for a JSON knowledge file: "schemas/verdict.schema.json" for verdict
// rules, "schemas/signatures.schema.json" for any other .json; "" for anything else.
std::string_view knowledge_schema_for(std::string_view name);

// Appends "NAME: /json/path: rule: message" for each way `content` breaks its schema.
void check_knowledge_json_schema(std::string_view content, const std::string& name,
                                 std::vector<std::string>& problems);

// Appends the problems of a schema file itself (it must compile in the subset).
void check_knowledge_schema_file(std::string_view content, const std::string& name,
                                 std::vector<std::string>& problems);

}  // namespace triage
