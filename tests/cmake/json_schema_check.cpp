// json_schema_check SCHEMA FILE...: validates JSON files against a schema of the subset of
// docs/json-schema.md (the golden reports against docs/schemas/report.schema.json).
// Prints each violation as "FILE: PATH: RULE: MESSAGE"; exit 0 when every file is valid,
// 1 when one is not, 2 when the schema or a file cannot be read or the schema is invalid.
#include <fstream>
#include <iostream>
#include <sstream>

#include "jsonschema/schema.h"

namespace {

bool read(const char* path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: json_schema_check SCHEMA FILE...\n";
    return 2;
  }
  std::string text;
  if (!read(argv[1], text)) {
    std::cerr << argv[1] << ": cannot read\n";
    return 2;
  }
  std::vector<std::string> errors;
  auto schema = triage::jsonschema::Schema::compile(text, errors);
  for (const auto& e : errors) std::cerr << argv[1] << ": " << e << '\n';
  if (!schema) return 2;
  int rc = 0;
  for (int i = 2; i < argc; ++i) {
    if (!read(argv[i], text)) {
      std::cerr << argv[i] << ": cannot read\n";
      return 2;
    }
    auto violations = schema->validate(text);
    for (const auto& v : violations) std::cout << argv[i] << ": " << v.to_string() << '\n';
    if (violations.empty()) std::cout << "ok " << argv[i] << '\n';
    else rc = 1;
  }
  return rc;
}
