#pragma once
// A JSON Schema validator for the subset of draft 2020-12 that the project's schemas use
// (docs/json-schema.md). Knowledge files (knowledge/schemas/) and the JSON report
// (docs/schemas/report.schema.json) are checked with it. A keyword outside the subset is an
// error in the schema, so nothing a schema says is silently left unchecked.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace triage::jsonschema {

// One way a document breaks its schema: where (a JSON Pointer, "" = the document), which
// keyword, and what was found.
struct Violation {
  std::string path;
  std::string rule;
  std::string message;
  // "/signatures/3/outcome: required: the property is missing" ("(root)" for "").
  std::string to_string() const;
};

class Schema {
 public:
  // Compiles a schema; null when the schema is not JSON or breaks the subset (each problem,
  // with its location in the schema as "#/properties/...", joins `errors`).
  static std::unique_ptr<Schema> compile(std::string_view text, std::vector<std::string>& errors);
  ~Schema();
  Schema(const Schema&) = delete;
  Schema& operator=(const Schema&) = delete;

  // The violations of a JSON text, in document order, at most `max_violations` (a text
  // that is not JSON gives one, rule "json").
  std::vector<Violation> validate(std::string_view json, size_t max_violations = 100) const;

  struct Impl;

 private:
  explicit Schema(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace triage::jsonschema
