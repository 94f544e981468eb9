// The schemas of the JSON knowledge files (knowledge/schemas/, issue 20 item 5): every
// built-in JSON file has one and passes it, and `knowledge check` rejects a dropped field,
// an unknown field and a changed type, naming file and JSON path.
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ingest/knowledge_check.h"
#include "knowledge/knowledge.h"
#include "knowledge/knowledge_schemas.h"

using namespace triage;
namespace fs = std::filesystem;

namespace {

std::string builtin(const std::string& name) {
  for (const auto& f : builtin_knowledge_files())
    if (f.name == name) return f.content;
  FAIL("not built in: " << name);
  return {};
}

// `text` with the first `from` replaced; the test fails when `from` is not there.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  INFO(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// Whether `knowledge check` of `content` as `name` reports a problem starting with `prefix`
// (and none saying the text is not JSON: each mutation keeps it JSON).
bool rejected(const std::string& content, const std::string& name, const std::string& prefix) {
  KnowledgeCheck c = check_knowledge_file(content, name);
  std::string all;
  for (const auto& p : c.problems) all += p + "\n";
  INFO(all);
  CHECK(all.find(": json: ") == std::string::npos);
  for (const auto& p : c.problems)
    if (p.starts_with(prefix)) return true;
  return false;
}

}  // namespace

TEST_CASE("knowledge schemas: each JSON knowledge file has a schema and passes it", "[knowledge][jsonschema]") {
  CHECK(knowledge_schema_for("signatures/plog.json") == "schemas/signatures.schema.json");
  CHECK(knowledge_schema_for("/some/dir/signatures/mine.json") == "schemas/signatures.schema.json");
  CHECK(knowledge_schema_for("verdict/hypotheses.json") == "schemas/verdict.schema.json");
  CHECK(knowledge_schema_for("/x/knowledge/verdict/hypotheses.json") == "schemas/verdict.schema.json");
  CHECK(knowledge_schema_for("error-codes.tsv").empty());
  CHECK(knowledge_schema_for("schemas/verdict.schema.json").empty());
  size_t json_files = 0, schemas = 0;
  for (const auto& f : builtin_knowledge_files()) {
    INFO(f.name);
    if (is_knowledge_schema(f.name)) {
      ++schemas;
      std::vector<std::string> problems;
      check_knowledge_schema_file(f.content, f.name, problems);
      CHECK(problems == std::vector<std::string>{});
      continue;
    }
    if (!f.name.ends_with(".json")) continue;
    ++json_files;
    std::vector<std::string> problems;
    check_knowledge_json_schema(f.content, f.name, problems);
    CHECK(problems == std::vector<std::string>{});
  }
  CHECK(schemas == 2);
  CHECK(json_files >= 5);  // four signature files and the verdict rules
}

TEST_CASE("knowledge schemas: a broken signature file is rejected with its JSON path", "[knowledge][jsonschema]") {
  const std::string plog = builtin("signatures/plog.json");
  const std::string name = "signatures/plog.json";
  REQUIRE(check_knowledge_file(plog, name).ok());
  // A required field dropped.
  CHECK(rejected(replaced(plog, "      \"outcome\": \"stream-stall\",\n", ""), name,
                 "signatures/plog.json: /signatures/0/outcome: required: the property is missing"));
  // An unknown field added.
  CHECK(rejected(replaced(plog, "\"category\": \"hang\",", "\"category\": \"hang\", \"owner\": \"me\","), name,
                 "signatures/plog.json: /signatures/0/owner: additionalProperties:"));
  CHECK(rejected(replaced(plog, "\"version\": 1,", "\"version\": 1, \"revision\": 2,"), name,
                 "signatures/plog.json: /revision: additionalProperties:"));
  // A type changed.
  CHECK(rejected(replaced(plog, "\"version\": 1,", "\"version\": \"1\","), name,
                 "signatures/plog.json: /version: type: expected integer, got string"));
  CHECK(rejected(replaced(plog, "\"id\": \"stream-stall/three-minute-report\",",
                          "\"id\": [\"stream-stall/three-minute-report\"],"), name,
                 "signatures/plog.json: /signatures/0/id: type: expected string, got array"));
  CHECK(rejected(replaced(plog, "\"match\": [", "\"match\": [7, "), name,
                 "signatures/plog.json: /signatures/0/samples/match/0: type: expected string, got integer"));
  // A value out of its enum.
  CHECK(rejected(replaced(plog, "\"severity\": \"warning\"", "\"severity\": \"fatal\""), name,
                 "signatures/plog.json: /signatures/0/severity: enum: \"fatal\" is not one of"));
}

TEST_CASE("knowledge schemas: broken verdict rules are rejected with their JSON path", "[knowledge][jsonschema]") {
  const std::string rules = builtin("verdict/hypotheses.json");
  const std::string name = "verdict/hypotheses.json";
  REQUIRE(check_knowledge_file(rules, name).ok());
  CHECK(rejected(replaced(rules, "\"effect\": \"supports\", ", ""), name,
                 "verdict/hypotheses.json: /rules/0/effect: required: the property is missing"));
  CHECK(rejected(replaced(rules, "\"weight\": 40,", "\"weight\": 40, \"weigth\": 1,"), name,
                 "verdict/hypotheses.json: /rules/0/weigth: additionalProperties:"));
  CHECK(rejected(replaced(rules, "\"weight\": 40,", "\"weight\": \"40\","), name,
                 "verdict/hypotheses.json: /rules/0/weight: type: expected integer, got string"));
  CHECK(rejected(replaced(rules, "\"strong_weight\": 30", "\"strong_weight\": 30.5"), name,
                 "verdict/hypotheses.json: /strong_weight: type: expected integer, got number"));
  CHECK(rejected(replaced(rules, "\"confirm\": {", "\"confirm\": {\"how\": \"x\", "), name,
                 "verdict/hypotheses.json: /hypotheses/0/confirm/how: additionalProperties:"));
}

TEST_CASE("knowledge schemas: a schema file outside the subset fails knowledge check", "[knowledge][jsonschema]") {
  std::string schema = builtin("schemas/signatures.schema.json");
  REQUIRE(check_knowledge_file(schema, "schemas/signatures.schema.json").ok());
  KnowledgeCheck c = check_knowledge_file(replaced(schema, "\"minItems\": 1,", "\"maxItems\": 1,"),
                                          "schemas/signatures.schema.json");
  REQUIRE_FALSE(c.ok());
  CHECK(c.problems[0].starts_with("schemas/signatures.schema.json: #/$defs/texts/maxItems: unknown keyword"));
}

TEST_CASE("knowledge schemas: the CLI names file and path and exits 1", "[knowledge][jsonschema]") {
  fs::path dir = fs::temp_directory_path() / ("ascend-triage-schema-" + std::to_string(::getpid()));
  fs::create_directories(dir / "signatures");
  fs::path file = dir / "signatures" / "broken.json";
  std::ofstream(file) << replaced(builtin("signatures/kernel.json"), "\"version\": 1,", "\"version\": true,");
  std::string cmd = std::string(ASCEND_TRIAGE_BIN) + " knowledge check " + file.string() + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  int rc = pclose(p);
  fs::remove_all(dir);
  INFO(out);
  CHECK(WIFEXITED(rc));
  CHECK(WEXITSTATUS(rc) == 1);
  CHECK(out.find("FAIL " + file.string() + ": /version: type: expected integer, got boolean") != std::string::npos);
}
